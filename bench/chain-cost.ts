/**
 * `npm run bench:chain [-- --baseline <commit> --commit <commit> --rounds 3 --groups 150 --teams 400
 * --seconds 8 --verify-rows 100000]`: what the contest chain (server/src/modules/chain/README.md) adds
 * to the attempts group commit, and how long `verifyChain` takes.
 *
 * Two builds taken from git (`git archive` of server, testkit and migrations into a temporary folder
 * with this checkout's node_modules), by default HEAD and the commit before the one that made the
 * chain module; each runs the product's own `writeAttemptGroup` (through its
 * testkit's `server-plugins.ts`, as the load tester's mysql2 baseline does) in a child process of its
 * own, in turns (the order swapped every round), on one throwaway database migrated by this
 * checkout (the older build leaves the chain's tables alone), its contest active, `--teams` teams:
 * - groups one at a time (`--groups` each), of 1 request × 1 attempt, 20 × 5 and 100 × 9 (900, the
 *   largest group): wall ms per group (median, p90) and the child's CPU ms per group (its whole
 *   process: the group's JavaScript and the driver; the database's own CPU is not in it);
 * - `ATTEMPT_GROUPS_AT_ONCE` groups at once, 20 × 5 each, for `--seconds`: attempts per second (the
 *   head lock queues two groups of one contest where they overlapped before).
 * Then, with this checkout, on a new contest, `--verify-rows` attempts (default 100,000) chained in
 * 900-attempt groups and verified with `verifyChain` three times: ms and the child's CPU ms. Prints
 * JSON; figures in BENCHMARKS.md "The contest chain". Needs the test MariaDB (TEST_DATABASE_URL, as
 * the tests).
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type mysql from 'mysql2/promise';
import { LEVELS } from '@concurso/shared';
import { createContest, createTeam, repoRoot, startTestServer } from '@concurso/testkit';
import { dropDatabase } from '@concurso/testkit/environment';

/** What a child is asked to do. */
interface ChildTask {
  root: string;
  databaseUrl: string;
  contestId: number;
  teamIds: number[];
  groups: number;
  seconds: number;
  /** Attempts to chain and verify instead of the group measures (HEAD's build only). */
  verifyRows?: number;
}

/** One shape of group: requests (distinct teams) × attempts each. */
const SHAPES = [
  { requests: 1, attempts: 1 },
  { requests: 20, attempts: 5 },
  { requests: 100, attempts: 9 },
] as const;

const SELF = fileURLToPath(import.meta.url);

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** The child's work: the measures of one build. */
async function runChild(task: ChildTask): Promise<unknown> {
  const kit = (await import(pathToFileURL(path.join(task.root, 'testkit/src/server-plugins.ts')).href)) as {
    createSqlPool: (url: string, n: number) => mysql.Pool;
    sqlBatchTransaction: <T>(pool: unknown, work: (send: unknown) => Promise<T>) => Promise<T>;
    writeAttemptGroup: (send: unknown, group: unknown[]) => Promise<unknown>;
    ATTEMPT_GROUPS_AT_ONCE: number;
  };
  const pool = kit.createSqlPool(task.databaseUrl, kit.ATTEMPT_GROUPS_AT_ONCE + 2);
  let seq = 0;
  let team = 0;
  const prefix = `${process.pid}-${Date.now().toString(36)}`;
  const group = (requests: number, attempts: number) =>
    Array.from({ length: requests }, () => ({
      teamId: task.teamIds[team++ % task.teamIds.length]!,
      attempts: Array.from({ length: attempts }, () => ({
        event_id: `${prefix}-${seq++}`,
        process: 'chrome.exe',
        occurred_at: new Date().toISOString(),
      })),
    }));
  const write = (g: unknown[]) => kit.sqlBatchTransaction(pool, (send) => kit.writeAttemptGroup(send, g));
  try {
    if (task.verifyRows !== undefined) {
      const { verifyChain } = (await import(
        pathToFileURL(path.join(task.root, 'testkit/src/server-plugins.ts')).href
      )) as { verifyChain: (sql: unknown, contestId: number) => Promise<{ ok: boolean; count: number }> };
      for (let done = 0; done < task.verifyRows; done += 900) await write(group(100, 9));
      const sql = async (text: string, params: unknown[] = []) => (await pool.query(text, params))[0];
      const runs: Array<{ ms: number; cpu_ms: number; ok: boolean; count: number }> = [];
      for (let i = 0; i < 3; i++) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        const verdict = await verifyChain(sql, task.contestId);
        const used = process.cpuUsage(cpu);
        runs.push({
          ms: round(performance.now() - started, 0),
          cpu_ms: round((used.user + used.system) / 1000, 0),
          ...verdict,
        });
      }
      return { rows: runs[0]!.count, ok: runs.every((r) => r.ok), runs };
    }
    const shapes: Record<string, unknown> = {};
    for (const shape of SHAPES) {
      for (let i = 0; i < 5; i++) await write(group(shape.requests, shape.attempts)); // warm
      const wall: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < task.groups; i++) {
        const g = group(shape.requests, shape.attempts);
        const before = process.cpuUsage();
        const started = performance.now();
        await write(g);
        wall.push(performance.now() - started);
        const used = process.cpuUsage(before);
        cpu.push((used.user + used.system) / 1000);
      }
      shapes[`${shape.requests}x${shape.attempts}`] = {
        wall_ms_median: round(quantile(wall, 0.5)),
        wall_ms_p90: round(quantile(wall, 0.9)),
        cpu_ms_median: round(quantile(cpu, 0.5)),
      };
    }
    // Groups at once, as attempt-writer.ts writes them.
    let attempts = 0;
    const deadline = performance.now() + task.seconds * 1000;
    const started = performance.now();
    const cpu = process.cpuUsage();
    await Promise.all(
      Array.from({ length: kit.ATTEMPT_GROUPS_AT_ONCE }, async () => {
        while (performance.now() < deadline) {
          await write(group(20, 5));
          attempts += 100;
        }
      }),
    );
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    return {
      groups_one_at_a_time: shapes,
      at_once: {
        attempts_per_s: round(attempts / seconds, 0),
        cpu_ms_per_group: round((used.user + used.system) / 1000 / (attempts / 100)),
      },
    };
  } finally {
    await pool.end();
  }
}

/** Runs `task` in a child process and answers what it measured. */
function inChild(task: ChildTask): Promise<unknown> {
  const child = fork(SELF, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { result?: unknown; error?: string }) =>
      m.error ? reject(new Error(m.error)) : resolve(m.result),
    );
    child.once('exit', (code) => reject(new Error(`child exited (${code})`)));
    child.send(task);
  }).finally(() => {
    if (child.exitCode === null) child.kill();
  });
}

/** `commit`'s server, testkit and migrations in a temporary folder, with this checkout's node_modules. */
function checkout(commit: string): { root: string; sha: string } {
  const sha = execFileSync('git', ['rev-parse', '--short', commit], { cwd: repoRoot }).toString().trim();
  const root = mkdtempSync(path.join(os.tmpdir(), `chain-bench-${sha}-`));
  const archive = execFileSync(
    'git',
    ['archive', commit, 'server', 'testkit', 'migrations', 'package.json'],
    {
      cwd: repoRoot,
      maxBuffer: 1 << 30,
    },
  );
  execFileSync('tar', ['-x', '-C', root], { input: archive });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'));
  return { root, sha };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      commit: { type: 'string' },
      baseline: { type: 'string' },
      rounds: { type: 'string', default: '3' },
      groups: { type: 'string', default: '150' },
      teams: { type: 'string', default: '400' },
      seconds: { type: 'string', default: '8' },
      'verify-rows': { type: 'string', default: '100000' },
    },
  });
  // By default the commit before the one that made the chain module.
  const made = execFileSync(
    'git',
    ['log', '--diff-filter=A', '--format=%H', '--', 'server/src/modules/chain/index.ts'],
    { cwd: repoRoot },
  )
    .toString()
    .trim()
    .split('\n')
    .at(-1)!;
  const baselineCommit = values.baseline ?? `${made}~1`;
  const builds = [checkout(baselineCommit), checkout(values.commit ?? 'HEAD')];
  // One database, migrated by the newer build's migrations (this checkout's testkit).
  const server = await startTestServer({}, { keepDatabase: true });
  const databaseUrl = server.config.databaseUrl;
  /** A new active contest with `--teams` teams. */
  const contestWithTeams = async (date: string) => {
    const contest = (await createContest(server.orm, date, { active: true })).id;
    const teams: number[] = [];
    for (let i = 0; i < Number(values.teams); i++)
      teams.push((await createTeam(server.orm, contest, LEVELS.basico)).id);
    return { contestId: contest, teamIds: teams };
  };
  const { contestId, teamIds } = await contestWithTeams('2026-11-21');
  try {
    const task = {
      databaseUrl,
      contestId,
      teamIds,
      groups: Number(values.groups),
      seconds: Number(values.seconds),
    };
    const results: Record<string, unknown[]> = {};
    // In turns, the order swapped every round: the database grows through the run.
    for (let r = 0; r < Number(values.rounds); r++) {
      for (const build of r % 2 === 0 ? builds : [...builds].reverse()) {
        (results[build.sha] ??= []).push(await inChild({ ...task, root: build.root }));
      }
    }
    // The verification as this checkout has it, on a contest of its own with exactly those rows.
    const verify = await inChild({
      ...task,
      ...(await contestWithTeams('2027-02-01')),
      root: repoRoot,
      verifyRows: Number(values['verify-rows']),
    });
    console.log(
      JSON.stringify(
        { baseline: builds[0]!.sha, commit: builds[1]!.sha, cpus: os.cpus().length, results, verify },
        null,
        2,
      ),
    );
  } finally {
    await server.close();
    await dropDatabase(databaseUrl).catch(() => undefined);
    for (const build of builds) rmSync(build.root, { recursive: true, force: true });
  }
}

if (process.send && process.argv[1] && path.resolve(process.argv[1]) === SELF) {
  process.on('disconnect', () => process.exit(0));
  process.once('message', (task: ChildTask) => {
    runChild(task)
      .then((result) => process.send!({ result }))
      .catch((err: unknown) =>
        process.send!({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
      )
      .finally(() => setTimeout(() => process.exit(0), 100));
  });
} else {
  await main();
}
