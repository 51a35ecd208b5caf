/**
 * `npm run bench:agent`: how fast the real agent ends forbidden processes, and what it costs idle.
 * Starts a server on a throwaway database (in this process), runs the agent CLI as its own process
 * (poll 1000 ms, the default), keeps `--running` idle, not blocked, processes alive (copies of sleep
 * over `--distinct` files: a lab machine's background), spawns blocked processes one after another
 * and times each from spawn to death: first by their blocked name, then renamed copies of
 * the same file, caught by the fingerprint the server learned from the first kills. Then leaves the
 * agent idle (fingerprints in its config, observing on: the contest's default) and samples its CPU
 * and memory from /proc, its children's CPU (the `ps` an older agent runs on each poll; on Linux the
 * agent now reads /proc itself) and this process's own CPU (the in-process server and the load
 * generator), so the figure is not the bench measuring itself. Linux only. Prints JSON.
 *
 * Options: --processes N (20: half by name, half renamed copies; a renamed copy the agent does not
 * end within 5 s is counted as not caught and ended by the bench), --running N (300), --distinct K
 * (50), --idle-seconds S (30), --bundled (run the packaged agent from `npm run agent:pack` instead of
 * the TypeScript sources under tsx), --agent-entry FILE (run another build of the agent, e.g. an
 * older one for a before/after comparison; `.ts` runs under tsx), --executable FILE (run a single
 * executable of `npm run agent:build` itself, no Node: its Linux one).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFile, chmod, copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  agentConfig,
  agentTeam,
  attemptCounts,
  repoRoot,
  startContest,
  startTestServer,
} from '@concurso/testkit';

const { values } = parseArgs({
  options: {
    processes: { type: 'string', default: '20' },
    running: { type: 'string', default: '300' },
    distinct: { type: 'string', default: '50' },
    'idle-seconds': { type: 'string', default: '30' },
    bundled: { type: 'boolean', default: false },
    'agent-entry': { type: 'string' },
    executable: { type: 'string' },
  },
});
const N = Number(values.processes);
const RUNNING = Number(values.running);
const DISTINCT = Math.max(1, Math.min(Number(values.distinct), RUNNING || 1));
const IDLE_S = Number(values['idle-seconds']);
const BY_NAME = Math.ceil(N / 2);
const RENAMED = N - BY_NAME;
/** How long a renamed copy may live before it counts as not caught (ms). */
const RENAMED_LIMIT_MS = 5_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CLK_TCK = 100; // Linux USER_HZ

/** utime + stime of a process, and cutime + cstime: the children it waited for (ticks). */
async function cpuTicks(pid: number): Promise<{ self: number; children: number }> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return {
    self: Number(fields[11]) + Number(fields[12]),
    children: Number(fields[13]) + Number(fields[14]),
  };
}
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}
/** Busy and total jiffies of the whole machine (/proc/stat's first line). */
async function machineTicks(): Promise<{ busy: number; total: number }> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!;
  const n = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const summary = (times: number[]) => {
  if (times.length === 0) return null;
  const sorted = [...times].sort((a, b) => a - b);
  return {
    median: Math.round(percentile(sorted, 50)),
    p90: Math.round(percentile(sorted, 90)),
    worst: Math.round(sorted.at(-1)!),
    best: Math.round(sorted[0]!),
  };
};

/** Copies /bin/sleep to `file` with random bytes appended: it runs, and its SHA-256 is its own. */
async function uniqueSleep(file: string): Promise<string> {
  await copyFile('/bin/sleep', file);
  await appendFile(file, randomBytes(32));
  await chmod(file, 0o755);
  return file;
}

/** Spawns `file` and answers its time from spawn to exit (ms), or null when it outlived `limitMs`. */
async function timeToDeath(file: string, limitMs: number): Promise<number | null> {
  const started = performance.now();
  const child = spawn(file, ['300'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const outcome = await Promise.race([exited.then(() => 'exit'), sleep(limitMs).then(() => 'late')]);
  if (outcome === 'late') {
    child.kill('SIGKILL');
    await exited;
    return null;
  }
  return performance.now() - started;
}

const server = await startTestServer();
const tmp = await mkdtemp(path.join(os.tmpdir(), 'bench-agent-'));
const name = `forbidden-${randomBytes(3).toString('hex')}`;
const background: ChildProcess[] = [];
try {
  const { adminToken, contestId } = await startContest(server, 'bench_admin');
  const team = await agentTeam(server, adminToken, {
    contestId,
    name: 'Banco de Pruebas',
    blocked: [`${name}.exe`],
  });

  // The machine's background: idle processes over a few distinct files, none blocked.
  await mkdir(path.join(tmp, 'bin'));
  const files = await Promise.all(
    Array.from({ length: DISTINCT }, (_, i) => uniqueSleep(path.join(tmp, 'bin', `tarea-${i}`))),
  );
  for (let i = 0; i < RUNNING; i++) {
    background.push(spawn(files[i % files.length]!, ['3600'], { stdio: 'ignore' }));
  }

  const entryFile = values['agent-entry'] ? path.resolve(values['agent-entry']) : null;
  const entry = entryFile
    ? entryFile.endsWith('.ts')
      ? ['--import', 'tsx', entryFile]
      : [entryFile]
    : values.bundled
      ? [path.join(repoRoot, 'agent/dist/package/concurso-agent.mjs')]
      : ['--import', 'tsx', path.join(repoRoot, 'agent/src/cli.ts')];
  // The key goes in the environment, never on the command line (the process list would show it).
  const executable = values.executable ? path.resolve(values.executable) : null;
  const agent = spawn(
    executable ?? process.execPath,
    [...(executable ? [] : entry), '--server', server.url, '--data-dir', path.join(tmp, 'data')],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, CONCURSO_AGENT_KEY: team.key },
    },
  );
  const agentLines: string[] = [];
  agent.stdout!.setEncoding('utf8').on('data', (chunk: string) => agentLines.push(...chunk.split('\n')));
  await new Promise<void>((resolve) => agent.stdout!.once('data', () => resolve()));
  await sleep(2_000);

  const binary = await uniqueSleep(path.join(tmp, name));
  const byName: number[] = [];
  for (let i = 0; i < BY_NAME; i++) {
    byName.push((await timeToDeath(binary, 60_000))!);
    process.stderr.write(`\rpor nombre ${i + 1}/${BY_NAME}: ${byName.at(-1)!.toFixed(0)} ms   `);
    await sleep(Math.random() * 1000); // land at a random point of the poll cycle
  }
  process.stderr.write('\n');

  // The server learned the fingerprint from those attempts; the agent reads it at its next config
  // refresh (every 10 s).
  const learned = (await agentConfig(server.url, team.key)).fingerprints.length;
  await sleep(11_000);
  const renamed: number[] = [];
  let notCaught = 0;
  for (let i = 0; i < RENAMED; i++) {
    const copy = path.join(tmp, `other-${randomBytes(3).toString('hex')}`);
    await copyFile(binary, copy);
    await chmod(copy, 0o755);
    const ms = await timeToDeath(copy, RENAMED_LIMIT_MS);
    if (ms === null) notCaught += 1;
    else renamed.push(ms);
    process.stderr.write(
      `\rrenombrados ${i + 1}/${RENAMED}: ${ms === null ? 'no terminado' : `${ms.toFixed(0)} ms`}   `,
    );
    await sleep(Math.random() * 1000);
  }
  process.stderr.write('\n');

  await sleep(3_000);
  const config = await agentConfig(server.url, team.key);
  const a0 = await cpuTicks(agent.pid!);
  const m0 = await machineTicks();
  const own0 = process.cpuUsage();
  const rss: number[] = [];
  for (let s = 0; s < IDLE_S; s++) {
    await sleep(1_000);
    rss.push(await rssMb(agent.pid!));
  }
  const a1 = await cpuTicks(agent.pid!);
  const m1 = await machineTicks();
  const own = process.cpuUsage(own0);
  const pct = (ticks: number) => Number(((ticks / CLK_TCK / IDLE_S) * 100).toFixed(2));
  const alive = background.filter((child) => child.exitCode === null && child.signalCode === null).length;
  agent.kill('SIGINT');
  await new Promise((r) => agent.once('exit', r));

  const counted = await attemptCounts(server.orm, team.id);
  console.log(
    JSON.stringify(
      {
        processes: N,
        agent: executable
          ? path.basename(executable)
          : entryFile
            ? path.basename(entryFile)
            : values.bundled
              ? 'bundled'
              : 'tsx',
        poll_ms: 1000,
        kill_ms: summary(byName),
        renamed_kill_ms: summary(renamed),
        renamed_caught: `${renamed.length}/${RENAMED}`,
        renamed_not_caught: notCaught,
        fingerprints_learned_by_server: learned,
        attempts_counted: counted.rows,
        idle: {
          seconds: IDLE_S,
          running_processes: RUNNING,
          running_alive_after: alive,
          distinct_files: DISTINCT,
          config: { fingerprints: config.fingerprints.length, observe: config.observe },
          cpu_pct: pct(a1.self - a0.self),
          children_cpu_pct: pct(a1.children - a0.children),
          rss_mb_max: Number(Math.max(...rss).toFixed(1)),
          bench_process_cpu_pct: Number((((own.user + own.system) / 1e6 / IDLE_S) * 100).toFixed(2)),
          machine_busy_pct_of_all_cores: Number(
            (((m1.busy - m0.busy) / (m1.total - m0.total)) * 100).toFixed(1),
          ),
        },
        agent_log_lines: agentLines.filter((line) => /renombrado|Huellas|Registro/.test(line)).slice(0, 4),
        host: {
          cpus: os.cpus().length,
          loadavg: (await readFile('/proc/loadavg', 'utf8')).trim(),
        },
      },
      null,
      2,
    ),
  );
} finally {
  for (const child of background) child.kill('SIGKILL');
  await rm(tmp, { recursive: true, force: true });
  await server.close();
}
