/**
 * `npm run bench:name-filter [-- --connections 500 --mb 100 --runs 3]`: what the agent's name filter
 * (agent/src/network/name-filter.ts: the diverted connections to 443 and 80, spliced by name) adds,
 * on loopback, against the same work straight to the server:
 *
 * - latency: `--connections` new HTTPS connections, one at a time, alternating straight and through
 *   the filter; each from connect to the first byte of the answer (TCP connect, the whole TLS 1.3
 *   handshake with the server, GET, first byte); median and p95 of each, and the median's difference;
 * - throughput: a `--mb` MB download over HTTPS and over plain HTTP, `--runs` times each way
 *   alternating; MB/s (median).
 *
 * The filter runs in a child process of its own (this file with `--filter-child`, importing the agent's
 * module like bench:agent-digests imports its digests), so its CPU (from /proc, user + system) is
 * told apart from this process's (the TLS server and its clients, the same work both ways:
 * `bench_process_cpu_pct`, % of one core over the phase). Linux only. Prints JSON.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const NAME = 'bench.test';
const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

// The child: the filter, told the server's ports; answers 'ports', then waits to be killed.
if (process.argv.includes('--filter-child')) {
  const { repoRoot } = await import('@concurso/testkit');
  const upstreamPorts = JSON.parse(process.argv[process.argv.indexOf('--filter-child') + 1]!) as {
    tls: number;
    http: number;
  };
  const file = path.join(repoRoot, 'agent', 'src', 'network', 'name-filter.ts');
  const { NameFilter } = (await import(pathToFileURL(file).href)) as {
    NameFilter: new (options: {
      addressesOf: (host: string) => Array<{ address: string; version: 4 | 6 }>;
      log: (line: string) => void;
      upstreamPorts: { tls: number; http: number };
    }) => {
      start(): Promise<{ tlsPort: number; httpPort: number }>;
      allow(names: Array<{ host: string; port: number | null }>): void;
      stats(): { spliced: number; refused: number };
    };
  };
  const filter = new NameFilter({
    addressesOf: () => [{ address: '127.0.0.1', version: 4 }],
    log: () => undefined,
    upstreamPorts,
  });
  const ports = await filter.start();
  filter.allow([{ host: NAME, port: null }]);
  process.send!({ ports });
  process.on('message', () => process.send!({ stats: filter.stats() }));
} else {
  await main();
}

async function main() {
  const { values } = parseArgs({
    options: {
      connections: { type: 'string', default: '500' },
      mb: { type: 'string', default: '100' },
      runs: { type: 'string', default: '3' },
    },
  });
  const CONNECTIONS = Math.max(2, Number(values.connections));
  const MB = Math.max(1, Number(values.mb));
  const RUNS = Math.max(1, Number(values.runs));
  const loadAtStart = os.loadavg()[0]!;

  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-name-filter-'));
  let child: ChildProcess | undefined;
  const servers: net.Server[] = [];
  try {
    execFileSync(
      'openssl',
      [
        ...[
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-days',
          '2',
        ],
        ...['-subj', `/CN=${NAME}`, '-addext', `subjectAltName=DNS:${NAME}`],
        ...['-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')],
      ],
      { stdio: 'ignore' },
    );
    const key = await readFile(path.join(dir, 'key.pem'), 'utf8');
    const cert = await readFile(path.join(dir, 'cert.pem'), 'utf8');

    // The site: a small page, and `MB` MB from one 1 MiB buffer written with backpressure.
    const chunk = Buffer.alloc(1 << 20, 0x61);
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.url !== '/big') return res.end('hola');
      res.writeHead(200, { 'content-length': String(MB * chunk.length) });
      let left = MB;
      const write = () => {
        while (left > 0) {
          left -= 1;
          if (!res.write(chunk)) return res.once('drain', write);
        }
        res.end();
      };
      write();
    };
    const tlsServer = https.createServer({ key, cert }, handler);
    const httpServer = http.createServer(handler);
    servers.push(tlsServer, httpServer);
    const listen = (s: net.Server) =>
      new Promise<number>((resolve) =>
        s.listen(0, '127.0.0.1', () => resolve((s.address() as net.AddressInfo).port)),
      );
    const direct = { tls: await listen(tlsServer), http: await listen(httpServer) };

    child = fork(fileURLToPath(import.meta.url), ['--filter-child', JSON.stringify(direct)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const filtered = await new Promise<{ tls: number; http: number }>((resolve, reject) => {
      child!.once('message', (m) => {
        const { ports } = m as { ports: { tlsPort: number; httpPort: number } };
        resolve({ tls: ports.tlsPort, http: ports.httpPort });
      });
      child!.once('exit', (code) => reject(new Error(`the filter's process ended (${code})`)));
    });
    const childPid = child.pid!;

    /** One request; ms from its start to the first byte of the body, and the bytes read. */
    const get = (secure: boolean, port: number, urlPath: string) =>
      new Promise<{ firstByteMs: number; bytes: number; ms: number }>((resolve, reject) => {
        const t0 = performance.now();
        let firstByteMs = -1;
        let bytes = 0;
        const options = { host: '127.0.0.1', port, path: urlPath, headers: { host: NAME }, agent: false };
        const onResponse = (res: http.IncomingMessage) => {
          res.on('data', (c: Buffer) => {
            if (firstByteMs < 0) firstByteMs = performance.now() - t0;
            bytes += c.length;
          });
          res.on('end', () => resolve({ firstByteMs, bytes, ms: performance.now() - t0 }));
        };
        const req = secure
          ? https.get({ ...options, servername: NAME, ca: cert }, onResponse)
          : http.get(options, onResponse);
        req.on('error', reject);
      });

    /** Runs `work`, with this process's CPU and the filter process's over it. */
    const measured = async <T>(work: () => Promise<T>) => {
      const own0 = process.cpuUsage();
      const f0 = await cpuMs(childPid);
      const t0 = performance.now();
      const result = await work();
      const seconds = (performance.now() - t0) / 1000;
      const own = process.cpuUsage(own0);
      return {
        result,
        seconds,
        bench_process_cpu_pct: round(((own.user + own.system) / 1e6 / seconds) * 100),
        filter_process_cpu_ms: (await cpuMs(childPid)) - f0,
      };
    };

    // Warm-up: both ways, a few connections and one download each.
    for (let i = 0; i < 20; i += 1) {
      await get(true, direct.tls, '/');
      await get(true, filtered.tls, '/');
    }

    const latency = await measured(async () => {
      const straight: number[] = [];
      const through: number[] = [];
      for (let i = 0; i < CONNECTIONS; i += 1) {
        straight.push((await get(true, direct.tls, '/')).firstByteMs);
        through.push((await get(true, filtered.tls, '/')).firstByteMs);
      }
      return { straight, through };
    });
    const { straight, through } = latency.result;

    const downloads: Record<string, unknown> = {};
    for (const [label, secure] of [
      ['https', true],
      ['http', false],
    ] as const) {
      const rates = { straight: [] as number[], through: [] as number[] };
      const cpu = { straight: [] as number[], through: [] as number[], filter_ms: [] as number[] };
      for (let run = 0; run < RUNS; run += 1) {
        for (const way of ['straight', 'through'] as const) {
          const port = way === 'straight' ? direct : filtered;
          const m = await measured(() => get(secure, secure ? port.tls : port.http, '/big'));
          if (m.result.bytes !== MB * chunk.length)
            throw new Error(`short download: ${m.result.bytes} bytes`);
          rates[way].push(MB / (m.result.ms / 1000));
          cpu[way].push(m.bench_process_cpu_pct);
          if (way === 'through') cpu.filter_ms.push(m.filter_process_cpu_ms);
        }
      }
      downloads[label] = {
        mb: MB,
        runs: RUNS,
        straight_mb_per_s: round(median(rates.straight)),
        through_filter_mb_per_s: round(median(rates.through)),
        ratio: round(median(rates.through) / median(rates.straight), 3),
        bench_process_cpu_pct: {
          straight: round(median(cpu.straight)),
          through_filter: round(median(cpu.through)),
        },
        filter_process_cpu_ms_per_mb: round(median(cpu.filter_ms) / MB, 3),
      };
    }

    child.send('stats');
    const stats = await new Promise((resolve) =>
      child!.once('message', (m) => resolve((m as { stats: unknown }).stats)),
    );
    console.log(
      JSON.stringify(
        {
          date: new Date().toISOString(),
          machine: {
            cpus: os.availableParallelism(),
            model: os.cpus()[0]?.model,
            node: process.version,
            // Other processes' load blurs these figures: the load average as the bench started.
            load_average_1min_at_start: round(loadAtStart, 2),
          },
          latency_ms: {
            connections: CONNECTIONS,
            what: 'connect + TLS handshake + GET + first byte, new connection each, one at a time',
            straight: { median: round(median(straight), 3), p95: round(percentile(straight, 0.95), 3) },
            through_filter: { median: round(median(through), 3), p95: round(percentile(through, 0.95), 3) },
            added_median: round(median(through) - median(straight), 3),
            added_p95: round(percentile(through, 0.95) - percentile(straight, 0.95), 3),
            bench_process_cpu_pct: latency.bench_process_cpu_pct,
            filter_process_cpu_ms_per_connection: round(latency.filter_process_cpu_ms / CONNECTIONS, 4),
          },
          download: downloads,
          filter_stats: stats,
        },
        null,
        2,
      ),
    );
  } finally {
    child?.kill();
    for (const s of servers) s.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** A process's CPU (user + system) from /proc, ms. */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks / CLK_TCK) * 1000;
}

function median(xs: number[]): number {
  return percentile(xs, 0.5);
}
function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}
function round(x: number, digits = 1): number {
  return Math.round(x * 10 ** digits) / 10 ** digits;
}
