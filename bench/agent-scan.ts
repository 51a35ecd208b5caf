/**
 * `npm run bench:agent-scan`: what the agent's scan costs with a lab machine's 300 processes, idle and
 * when new programs start, for two builds of the agent doing the same work: `--commit` (default HEAD)
 * against `--baseline` (default 76188bc, the agent before it knew programs by their version resource,
 * similarity digest, loader or family). Each build is taken from git (`git archive`, so uncommitted
 * work in the tree never blurs the figures), bundled as `npm run agent:build` bundles it (esbuild, one
 * CommonJS file, the same defines) and run by this Node as its own process. Linux only (/proc).
 *
 * For each build (in turns, `--rounds` times), against a server on a throwaway database (in this process) and with the same
 * `--running` idle processes alive (copies of sleep over `--distinct` files, random bytes appended):
 *
 * 1. idle: after a `--warm-seconds` warm-up, the agent's CPU (utime + stime from /proc, its children's
 *    too) over `--idle-seconds` with nothing new: `idle_cpu_pct` (% of one core; the bar is 3 %) and
 *    `cpu_ms_per_scan`, that CPU divided by the scans of the window (one per `--poll-ms`): an upper
 *    bound, as it includes heartbeats and config reads;
 * 0. first, one blocked program (a file of the bench's own) is started and ended by name, as in a contest,
 *    so the agent knows a blocked file and reads every new program's digests to compare with it
 *    (`--no-known-file` leaves that out);
 * 2. new programs: `--new-files` new files of `--new-file-mb` MB each (sleep with random bytes appended:
 *    every byte new to any digest) start at once while the contest observes; the agent's CPU over
 *    `--new-seconds` minus its idle CPU over the same time, per new file and per MB: what reading
 *    (fingerprint, similarity digest, ...) a new program costs the running agent, end to end.
 *
 * The bench's own CPU and event-loop utilisation (the load generator and the in-process server) are
 * reported for each window, and the machine's, so the figures are not the bench measuring itself.
 * Prints JSON.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  appendFile,
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { agentTeam, repoRoot, startContest, startTestServer } from '@concurso/testkit';

const { values } = parseArgs({
  options: {
    commit: { type: 'string', default: 'HEAD' },
    baseline: { type: 'string', default: '76188bc' },
    running: { type: 'string', default: '300' },
    distinct: { type: 'string', default: '50' },
    'poll-ms': { type: 'string', default: '1000' },
    'warm-seconds': { type: 'string', default: '15' },
    'idle-seconds': { type: 'string', default: '30' },
    'new-files': { type: 'string', default: '10' },
    'new-file-mb': { type: 'string', default: '8' },
    'new-seconds': { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    isolate: { type: 'string', default: 'auto' },
    'no-known-file': { type: 'boolean', default: false },
  },
});
const RUNNING = Number(values.running);
const DISTINCT = Math.max(1, Math.min(Number(values.distinct), RUNNING || 1));
const POLL_MS = Number(values['poll-ms']);
const WARM_S = Number(values['warm-seconds']);
const IDLE_S = Number(values['idle-seconds']);
const NEW_FILES = Number(values['new-files']);
const NEW_FILE_MB = Number(values['new-file-mb']);
const NEW_S = Number(values['new-seconds']);
const ROUNDS = Math.max(1, Number(values.rounds));
/**
 * Each agent in a PID namespace of its own (`unshare --pid --mount-proc`, root only) with its
 * `--running` processes: it then sees those and nothing else, so "300 processes and nothing new"
 * holds on a machine where other work starts processes all the time.
 */
const ISOLATE =
  values.isolate === 'on' ||
  (values.isolate === 'auto' && process.getuid?.() === 0 && existsSync('/usr/bin/unshare'));
const CLK_TCK = 100; // Linux USER_HZ
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/** utime + stime of a process and of the children it waited for (ticks). */
async function cpuTicks(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
}
async function machineTicks(): Promise<{ busy: number; total: number }> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n')[0]!;
  const n = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (n[3] ?? 0) + (n[4] ?? 0);
  return { busy: n.reduce((a, b) => a + b, 0) - idle, total: n.reduce((a, b) => a + b, 0) };
}

/** What one window cost: the agent's CPU (ms), the bench's own CPU and event loop, the machine's. */
async function measure(pid: number, seconds: number, during?: () => Promise<void>) {
  const a0 = await cpuTicks(pid);
  const m0 = await machineTicks();
  const own0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  await Promise.all([during?.(), sleep(seconds * 1000)]);
  const a1 = await cpuTicks(pid);
  const m1 = await machineTicks();
  const own = process.cpuUsage(own0);
  const elu = performance.eventLoopUtilization(elu0);
  return {
    agent_cpu_ms: ((a1 - a0) / CLK_TCK) * 1000,
    bench_process_cpu_pct: round(((own.user + own.system) / 1e6 / seconds) * 100),
    bench_event_loop_utilisation: round(elu.utilization, 3),
    machine_busy_pct_of_all_cores: round(((m1.busy - m0.busy) / (m1.total - m0.total)) * 100, 1),
  };
}

/** How many processes `/proc` lists (`root`: a PID namespace's, seen through one of its processes). */
async function processCount(root = ''): Promise<number> {
  return (await readdir(`${root}/proc`)).filter((name) => /^\d+$/.test(name)).length;
}

/** The host pid of the process whose command line contains `marker` (the agent in its namespace). */
async function pidOf(marker: string): Promise<number> {
  for (let tries = 0; tries < 100; tries++) {
    for (const name of await readdir('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const cmdline = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
      if (cmdline.includes(marker) && !cmdline.startsWith('unshare') && !cmdline.startsWith('/bin/sh'))
        return Number(name);
    }
    await sleep(100);
  }
  throw new Error(`no encuentro el proceso de ${marker}`);
}

/** Copies /bin/sleep to `file` with `extra` random bytes appended: it runs, its bytes are its own. */
async function uniqueSleep(file: string, extra = 32): Promise<string> {
  await copyFile('/bin/sleep', file);
  for (let left = extra; left > 0; left -= 1 << 20)
    await appendFile(file, randomBytes(Math.min(left, 1 << 20)));
  await chmod(file, 0o755);
  return file;
}

/**
 * The blocked program ended by name: a C program of the bench's own (gcc) that waits, with 64 KiB of
 * random data, so it is like no other file here. Not a copy of sleep: the 300 background processes
 * are copies of sleep, and a similarity digest rightly takes every copy of sleep for one program.
 */
async function knownProgram(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmp, 'conocido-'));
  const source = path.join(dir, 'programa.c');
  const data = [...randomBytes(64 * 1024)].join(',');
  await writeFile(
    source,
    `#include <unistd.h>\nvolatile const unsigned char datos[] = {${data}};\nint main(void) { sleep(3600); return 0; }\n`,
  );
  const file = path.join(dir, name);
  execFileSync('gcc', ['-O2', '-o', file, source]);
  return file;
}

/** The agent's CLI at `commit`, bundled like agent/scripts/build.ts bundles it; answers the file. */
async function bundleAgent(commit: string, dir: string): Promise<{ file: string; commit: string }> {
  const sha = execFileSync('git', ['rev-parse', '--short=10', commit], {
    cwd: repoRoot,
    encoding: 'utf8',
  }).trim();
  const tree = path.join(dir, sha);
  await mkdir(tree, { recursive: true });
  const archive = execFileSync(
    'git',
    ['archive', sha, 'agent/src', 'agent/package.json', 'shared/src', 'shared/package.json'],
    {
      cwd: repoRoot,
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  execFileSync('tar', ['-x', '-C', tree], { input: archive });
  const file = path.join(dir, `agent-${sha}.cjs`);
  await build({
    entryPoints: [path.join(tree, 'agent', 'src', 'cli.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    alias: { '@concurso/shared': path.join(tree, 'shared', 'src', 'index.ts') },
    nodePaths: [path.join(repoRoot, 'node_modules')],
    external: ['bufferutil', 'utf-8-validate'],
    define: {
      __AGENT_COMMIT__: JSON.stringify(sha),
      'process.env.WS_NO_BUFFER_UTIL': JSON.stringify('1'),
      'process.env.WS_NO_UTF_8_VALIDATE': JSON.stringify('1'),
      'import.meta.url': '__agentImportMetaUrl',
    },
    banner: { js: "var __agentImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    legalComments: 'none',
    logLevel: 'error',
  });
  return { file, commit: sha };
}

const server = await startTestServer();
const tmp = await mkdtemp(path.join(os.tmpdir(), 'bench-agent-scan-'));
const background: ChildProcess[] = [];
const newcomers: ChildProcess[] = [];
try {
  const builds = [await bundleAgent(values.baseline!, tmp), await bundleAgent(values.commit!, tmp)];
  const { adminToken, contestId } = await startContest(server, 'bench_scan_admin');

  await mkdir(path.join(tmp, 'bin'));
  const files = await Promise.all(
    Array.from({ length: DISTINCT }, (_, i) => uniqueSleep(path.join(tmp, 'bin', `tarea-${i}`))),
  );
  if (!ISOLATE) {
    for (let i = 0; i < RUNNING; i++)
      background.push(spawn(files[i % files.length]!, ['3600'], { stdio: 'ignore' }));
    await sleep(1_000);
  }

  const results = [];
  // Baseline and current in turns, `--rounds` times: a machine getting busier favours neither.
  const turns = Array.from({ length: ROUNDS }, () => builds).flat();
  for (const [index, agentBuild] of turns.entries()) {
    const blockedName = `prohibido-${randomBytes(3).toString('hex')}`;
    const team = await agentTeam(server, adminToken, {
      contestId,
      name: `Banco ${index}`,
      blocked: [`${blockedName}.exe`],
    });
    const dataDir = path.join(tmp, `data-${index}`);
    const args = [
      agentBuild.file,
      '--server',
      server.url,
      '--data-dir',
      dataDir,
      '--poll-ms',
      String(POLL_MS),
    ];
    const env = { ...process.env, CONCURSO_AGENT_KEY: team.key };
    let agent: ChildProcess;
    if (ISOLATE) {
      // The namespace's first process starts the background processes and the agent, and waits.
      const script = path.join(tmp, `ns-${index}.sh`);
      await writeFile(
        script,
        [
          'i=0',
          `while [ $i -lt ${RUNNING} ]; do "${path.join(tmp, 'bin')}/tarea-$((i % ${DISTINCT}))" 3600 & i=$((i+1)); done`,
          `${[process.execPath, ...args].map((a) => `'${a}'`).join(' ')} &`,
          'wait',
          '',
        ].join('\n'),
      );
      agent = spawn('unshare', ['--pid', '--fork', '--mount-proc', '--kill-child', '/bin/sh', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env,
      });
    } else {
      agent = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
    }
    const lines: string[] = [];
    agent.stdout!.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n')));
    await new Promise<void>((resolve) => agent.stdout!.once('data', () => resolve()));
    const agentPid = ISOLATE ? await pidOf(dataDir) : agent.pid!;
    /** Starts `files` (each `sleep 3600`) where the agent sees them: in its namespace when isolated. */
    const startPrograms = (files: string[]): ChildProcess[] => {
      if (!ISOLATE) return files.map((file) => spawn(file, ['3600'], { stdio: 'ignore' }));
      const loop = 'for f in "$@"; do "$f" 3600 & done; wait';
      const nsArgs = ['-t', String(agentPid), '-p', '-m', '/bin/sh', '-c', loop, 'sh', ...files];
      return [spawn('nsenter', nsArgs, { stdio: 'ignore' })];
    };
    // A lab in a contest: a blocked program was ended by name once, so the agent knows its file and
    // reads every new program's digests to compare (`--no-known-file`: a machine where none was).
    if (!values['no-known-file']) newcomers.push(...startPrograms([await knownProgram(blockedName)]));
    await sleep(WARM_S * 1000);
    const seen = await processCount(ISOLATE ? `/proc/${agentPid}/root` : '');
    process.stderr.write(`${agentBuild.commit}: en reposo ${IDLE_S} s (${seen} procesos a la vista)…\n`);
    const idle = await measure(agentPid, IDLE_S);
    const scans = (IDLE_S * 1000) / POLL_MS;

    process.stderr.write(`${agentBuild.commit}: ${NEW_FILES} programas nuevos de ${NEW_FILE_MB} MB…\n`);
    await mkdir(path.join(tmp, `nuevos-${index}`));
    const fresh = await Promise.all(
      Array.from({ length: NEW_FILES }, (_, i) =>
        uniqueSleep(path.join(tmp, `nuevos-${index}`, `nuevo-${i}`), NEW_FILE_MB * 1024 * 1024),
      ),
    );
    const start = async () => {
      newcomers.push(...startPrograms(fresh));
    };
    const busy = await measure(agentPid, NEW_S, start);
    const extraMs = busy.agent_cpu_ms - (idle.agent_cpu_ms / IDLE_S) * NEW_S;
    process.kill(agentPid, 'SIGINT');
    await sleep(2_000);
    for (const child of newcomers.splice(0)) child.kill('SIGKILL');
    // Isolated, ending `unshare` ends its namespace: every process in it.
    agent.kill('SIGKILL');
    await sleep(500);
    results.push({
      build: agentBuild.commit,
      idle: {
        seconds: IDLE_S,
        running_processes: RUNNING,
        isolated_pid_namespace: ISOLATE,
        processes_the_agent_sees: seen,
        idle_cpu_pct: round((idle.agent_cpu_ms / 1000 / IDLE_S) * 100),
        cpu_ms_per_scan: round(idle.agent_cpu_ms / scans),
        bench_process_cpu_pct: idle.bench_process_cpu_pct,
        bench_event_loop_utilisation: idle.bench_event_loop_utilisation,
        machine_busy_pct_of_all_cores: idle.machine_busy_pct_of_all_cores,
      },
      new_programs: {
        files: NEW_FILES,
        known_file_ended_before: !values['no-known-file'],
        mb_each: NEW_FILE_MB,
        seconds: NEW_S,
        agent_cpu_ms: round(busy.agent_cpu_ms, 0),
        cpu_ms_per_new_file: round(extraMs / NEW_FILES, 1),
        cpu_ms_per_mb: round(extraMs / NEW_FILES / NEW_FILE_MB, 2),
        bench_process_cpu_pct: busy.bench_process_cpu_pct,
        bench_event_loop_utilisation: busy.bench_event_loop_utilisation,
        machine_busy_pct_of_all_cores: busy.machine_busy_pct_of_all_cores,
      },
      agent_log: lines.filter((line) => line.trim() !== '').slice(0, 3),
    });
  }
  console.log(
    JSON.stringify(
      {
        poll_ms: POLL_MS,
        rounds: ROUNDS,
        baseline: results.filter((result) => result.build === builds[0]!.commit),
        current: results.filter((result) => result.build === builds[1]!.commit),
        idle_cpu_pct_bar: 3,
        host: { cpus: os.cpus().length, loadavg: (await readFile('/proc/loadavg', 'utf8')).trim() },
      },
      null,
      2,
    ),
  );
} finally {
  for (const child of [...background, ...newcomers]) child.kill('SIGKILL');
  await rm(tmp, { recursive: true, force: true });
  await server.close();
}
