/**
 * `npm run bench:agent`: how fast the real agent ends forbidden processes, and what it costs idle.
 * Starts a server on a throwaway database, runs the agent CLI as its own process (poll 1000 ms, the
 * default), spawns N blocked processes one after another and times each from spawn to death; then
 * leaves the agent idle and samples its CPU and memory from /proc. Linux only. Prints JSON.
 *
 * Options: --processes N (20), --idle-seconds S (30), --bundled (run the packaged agent from
 * `npm run agent:pack` instead of the TypeScript sources under tsx).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { agentTeam, attemptCounts, repoRoot, startContest, startTestServer } from '@concurso/testkit';

const { values } = parseArgs({
  options: {
    processes: { type: 'string', default: '20' },
    'idle-seconds': { type: 'string', default: '30' },
    bundled: { type: 'boolean', default: false },
  },
});
const N = Number(values.processes);
const IDLE_S = Number(values['idle-seconds']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const CLK_TCK = 100; // Linux USER_HZ

async function cpuTicks(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const server = await startTestServer();
const tmp = await mkdtemp(path.join(os.tmpdir(), 'bench-agent-'));
const name = `forbidden-${randomBytes(3).toString('hex')}`;
try {
  const { adminToken, contestId } = await startContest(server, 'bench_admin');
  const team = await agentTeam(server, adminToken, {
    contestId,
    name: 'Banco de Pruebas',
    blocked: [`${name}.exe`],
  });

  const entry = values.bundled
    ? [path.join(repoRoot, 'agent/dist/package/concurso-agent.mjs')]
    : ['--import', 'tsx', path.join(repoRoot, 'agent/src/cli.ts')];
  // The key goes in the environment, never on the command line (the process list would show it).
  const agent = spawn(
    process.execPath,
    [...entry, '--server', server.url, '--data-dir', path.join(tmp, 'data')],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, CONCURSO_AGENT_KEY: team.key },
    },
  );
  await new Promise<void>((resolve) => agent.stdout!.once('data', () => resolve()));
  await sleep(2_000);

  const binary = path.join(tmp, name);
  await copyFile('/bin/sleep', binary);
  await chmod(binary, 0o755);
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const started = performance.now();
    const child = spawn(binary, ['300'], { stdio: 'ignore' });
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    times.push(performance.now() - started);
    process.stderr.write(`\rproceso ${i + 1}/${N}: ${times.at(-1)!.toFixed(0)} ms   `);
    await sleep(Math.random() * 1000); // land at a random point of the poll cycle
  }
  process.stderr.write('\n');

  await sleep(3_000);
  const t0 = await cpuTicks(agent.pid!);
  const rss: number[] = [];
  for (let s = 0; s < IDLE_S; s++) {
    await sleep(1_000);
    rss.push(await rssMb(agent.pid!));
  }
  const cpuPct = (((await cpuTicks(agent.pid!)) - t0) / CLK_TCK / IDLE_S) * 100;
  agent.kill('SIGINT');
  await new Promise((r) => agent.once('exit', r));

  const counted = await attemptCounts(server.orm, team.id);
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    JSON.stringify(
      {
        processes: N,
        agent: values.bundled ? 'bundled' : 'tsx',
        poll_ms: 1000,
        kill_ms: {
          median: Math.round(percentile(sorted, 50)),
          p90: Math.round(percentile(sorted, 90)),
          worst: Math.round(sorted.at(-1)!),
          best: Math.round(sorted[0]!),
        },
        attempts_counted: counted.rows,
        idle: {
          seconds: IDLE_S,
          cpu_pct: Number(cpuPct.toFixed(2)),
          rss_mb_max: Number(Math.max(...rss).toFixed(1)),
        },
        host: {
          cpus: os.cpus().length,
          process_count: (await readFile('/proc/loadavg', 'utf8')).split(' ')[3],
        },
      },
      null,
      2,
    ),
  );
} finally {
  await rm(tmp, { recursive: true, force: true });
  await server.close();
}
