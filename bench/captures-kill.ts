/**
 * `npm run bench:captures -- --mode kill [--runs 10] [--executable FILE | --agent-entry FILE]`: how
 * soon after a blocked program ends a judge sees its «antes» capture (agent/README.md, «Capturas de
 * pantalla»), end to end: a server on a throwaway database in this process (testkit
 * `startTestServer`, a contest with captures on, its default), an Xvfb of 1920 × 1080 of this bench
 * painted with a busy picture (ImageMagick's `plasma:fractal` shown by `xwud`), and the real agent as
 * its own process on that display (`AGENT_DISPLAY`): by default the CLI from the sources under tsx,
 * `--agent-entry` another entry (`.ts` under tsx, e.g. an older commit's sources for a before/after),
 * `--executable` a single executable of `npm run agent:build` (its Linux one). The blocked program is
 * a copy of /bin/sleep this bench made (its own name, build-id and bytes: nothing else on the machine
 * matches it); each run starts it, and times from its exit (seen by this process) to the moment the
 * judges' list (`GET /api/captureList?teams_id=`, polled every 50 ms through the app) shows that
 * attempt's «antes»; then waits for its «despues» and 1-2 s before the next run. The first run also
 * starts what the agent starts lazily (its first fingerprint of the file, the captures' encoder
 * thread): reported apart, and the median/p95 are over the other runs. Also the agent's resident
 * memory (/proc) before the first kill, after the last and 65 s later (its encoder thread ends after
 * a minute idle). Linux only, as root (the agent ends the
 * program). Answers the figures as one object.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { agentTeam, callAs, repoRoot, startContest, startTestServer, startXvfb } from '@concurso/testkit';
import { median as medianOf } from './load/median.js';

/** What `killToJudge` runs. */
export interface KillToJudgeOptions {
  /** Kills timed (the first one is reported apart). */
  runs: number;
  /** A single executable of the agent to run instead of the sources. */
  executable?: string;
  /** Another entry of the agent's CLI (`.ts` runs under tsx). */
  agentEntry?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;
/** How long the agent is left idle after the runs before its memory is read again (ms). */
const IDLE_WAIT_MS = 65_000;
/** How often the judges' list is read (ms), as a judge's console polling it closely would. */
const LIST_EVERY_MS = 50;

const run = (command: string, args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ended ${code}`))));
  });

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

/**
 * /bin/sleep copied into `dir` as `name` with a GNU build-id and a SHA-256 of its own (random bytes in
 * the build-id's place and appended): the agent, which learns what it ends, never takes another copy
 * of sleep on this machine for it.
 */
async function ownSleep(dir: string, name: string): Promise<string> {
  const { readBuildId } = (await import(
    pathToFileURL(path.join(repoRoot, 'agent/src/build-id.ts')).href
  )) as {
    readBuildId: (file: string) => Promise<string | null>;
  };
  const bytes = await readFile('/bin/sleep');
  const id = await readBuildId('/bin/sleep');
  if (id) {
    const at = bytes.indexOf(Buffer.from(id, 'hex'));
    if (at >= 0) randomBytes(id.length / 2).copy(bytes, at);
  }
  const file = path.join(dir, name);
  await writeFile(file, Buffer.concat([bytes, randomBytes(64)]));
  await chmod(file, 0o755);
  return file;
}

/** Runs the measurement (see the file's comment) and answers its figures. */
export async function killToJudge(options: KillToJudgeOptions): Promise<object> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'bench-captures-kill-'));
  const screen = await startXvfb('1920x1080');
  const server = await startTestServer();
  const children: ChildProcess[] = [];
  try {
    const picture = path.join(work, 'busy.xwd');
    await run('convert', ['-size', '1920x1080', 'plasma:fractal', picture]);
    children.push(
      spawn('xwud', ['-in', picture, '-noclick', '-geometry', '+0+0', '-display', screen.display], {
        stdio: 'ignore',
      }),
    );
    const { adminToken, contestId } = await startContest(server, 'bench_capturas');
    const name = `prohibido-${randomBytes(3).toString('hex')}`;
    const team = await agentTeam(server, adminToken, {
      contestId,
      name: 'Banco de Capturas',
      blocked: [name],
    });
    const binary = await ownSleep(work, name);

    const entry = options.agentEntry
      ? path.resolve(options.agentEntry)
      : path.join(repoRoot, 'agent/src/cli.ts');
    const executable = options.executable ? path.resolve(options.executable) : null;
    // The key goes in the environment, never on the command line (the process list would show it).
    const agent = spawn(
      executable ?? process.execPath,
      [
        ...(executable ? [] : entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry]),
        '--server',
        server.url,
        '--data-dir',
        path.join(work, 'datos'),
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, CONCURSO_AGENT_KEY: team.key, AGENT_DISPLAY: screen.display },
      },
    );
    children.push(agent);
    const agentLines: string[] = [];
    for (const stream of [agent.stdout!, agent.stderr!])
      stream.setEncoding('utf8').on('data', (chunk: string) => agentLines.push(...chunk.split('\n')));
    await new Promise<void>((resolve) => agent.stdout!.once('data', () => resolve()));
    // Its config read and its first scans done; the captures' notice shown.
    await sleep(3_000);
    const rssBefore = await rssMb(agent.pid!);

    const list = async () => {
      const res = await callAs(server.app, adminToken, `/api/captureList?teams_id=${team.id}`);
      return (res.body.data ?? []) as { event_id: string | null; moment: string }[];
    };
    const seen = new Set<string>();
    const times: number[] = [];
    const timedOut: number[] = [];
    for (let i = 0; i < options.runs; i++) {
      const program = spawn(binary, ['300'], { stdio: 'ignore' });
      children.push(program);
      const exitedAt = await new Promise<number>((resolve) =>
        program.once('exit', () => resolve(Date.now())),
      );
      let ms: number | null = null;
      let event: string | null = null;
      const deadline = exitedAt + 30_000;
      while (Date.now() < deadline) {
        const antes = (await list()).find((row) => row.moment === 'antes' && !seen.has(row.event_id ?? ''));
        if (antes) {
          ms = Date.now() - exitedAt;
          event = antes.event_id ?? '';
          seen.add(event);
          break;
        }
        await sleep(LIST_EVERY_MS);
      }
      if (ms === null) timedOut.push(i + 1);
      else times.push(ms);
      process.stderr.write(
        `\rmuerte → juez ${i + 1}/${options.runs}: ${ms === null ? 'no llegó' : `${ms} ms`}   `,
      );
      // Its «despues» too, so the next run starts on a quiet agent; then a moment off the poll's phase.
      while (
        event &&
        Date.now() < deadline &&
        !(await list()).some((r) => r.event_id === event && r.moment === 'despues')
      )
        await sleep(200);
      await sleep(1_000 + Math.random() * 1_000);
    }
    process.stderr.write('\n');
    const rssAfter = await rssMb(agent.pid!);
    // The encoder thread ends after a minute without captures (agent/src/capture-encoder.ts).
    await sleep(IDLE_WAIT_MS);
    const rssIdle = await rssMb(agent.pid!);
    const rest = times.slice(1);
    return {
      agent: executable ? path.basename(executable) : path.relative(repoRoot, entry),
      display: '1920x1080',
      runs: options.runs,
      list_polled_every_ms: LIST_EVERY_MS,
      kill_to_judge_ms: {
        first: times[0] ?? null,
        median: rest.length > 0 ? medianOf(rest) : null,
        p95: rest.length > 0 ? p95(rest) : null,
        best: rest.length > 0 ? Math.min(...rest) : null,
        worst: rest.length > 0 ? Math.max(...rest) : null,
        each: times,
      },
      never_listed_runs: timedOut,
      agent_rss_mb: { before_first_kill: rssBefore, after_runs: rssAfter, idle_65_s_later: rssIdle },
      agent_log_capture_lines: agentLines.filter((line) => /captur|hilo/i.test(line)),
      cores: os.availableParallelism(),
      load_average_1m: Math.round(os.loadavg()[0]! * 10) / 10,
    };
  } finally {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    screen.stop();
    server.app.server.closeAllConnections();
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
}
