import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import mysql from 'mysql2/promise';
import { LEVELS } from '@concurso/shared';
import {
  type Deployment,
  eventually,
  type MariaDbInstance,
  type RedisInstance,
  type ServerProcess,
  startDeployment,
  startMariaDb,
  startRedis,
} from '@concurso/testkit';
import { BoardClient } from './support/board-client.js';
import { HealthMonitor } from './support/health-monitor.js';
import { ScriptedAgent, type AgentRequest } from './support/scripted-agent.js';

/**
 * The fault suite (live-contest resilience, docs/design.md section 8). It runs a MariaDB and a
 * Redis of its own (never the shared ones), two server processes on them, a scripted agent sending
 * attempts at a steady rate and a board client on each process; then, one after the other and with the
 * load running, it kills MariaDB, kills a server, kills Redis and freezes MariaDB. After each it checks
 * that no process died but the one killed on purpose, that `/api/health` said so and recovered, that
 * attempts sent = acknowledged = rows = sum of the counters, and that every board ends equal to the
 * database. The timings are printed as a table at the end.
 */

const DATABASE = 'concurso_fault';
const TEAMS_PER_LEVEL = 4;
/** New attempts per second over all the teams with an agent. */
const ATTEMPTS_PER_S = 20;
/** The server promises health 503 within 5 s of a database freeze; the rest is probe and scheduling slack (ms). */
const FIRST_503_LIMIT_MS = 6_500;
/** From the end of a fault to health 200 and to the first acknowledged attempt (ms). */
const RECOVERY_LIMIT_MS = 15_000;
/** How long a board may take to equal the database once the load stopped (ms). */
const BOARD_SETTLE_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What one scenario measured, for the table at the end. Times in ms. */
interface ScenarioResult {
  name: string;
  /** Per process: fault → first health 503 (undefined: none seen). */
  first503: Array<number | undefined>;
  /** Per process: which parts the first 503 said were down. */
  downParts: string[];
  /** Restart or thaw → the faulty component answers again (the fault's end). */
  restoreMs: number;
  /** Per process: the fault's end → first health 200 of a probe sent after it. */
  healthOk: Array<number | undefined>;
  /** The fault's end → first acknowledged attempt through each affected process (the latest of them). */
  firstAck: number | undefined;
  sent: number;
  acked: number;
  /** Agent answers to the requests sent during the outage (fault to its end), by status. */
  outageStatuses: Record<string, number>;
  /** Per process: health answers to the probes sent during the outage, by status. */
  healthDuring: Array<Record<string, number>>;
  /** Slowest agent request sent during the outage (ms). */
  slowestMs: number;
}

/** A fault staged by a scenario. */
interface Scenario {
  name: string;
  /** The part `/api/health` must report `down` during the outage; null when a server itself is killed. */
  down: 'database' | 'redis' | null;
  /** Index of the server process killed on purpose, if any. */
  killedServer?: number;
  /** How long the fault lasts (ms). */
  outageMs: number;
  fault(): Promise<void> | void;
  /** Ends the fault; resolves once the faulty component answers again. */
  restore(): Promise<void> | void;
}

describe('fault suite: the contest survives database, server and Redis outages', () => {
  let db: MariaDbInstance | undefined;
  let redis: RedisInstance | undefined;
  let deployment: Deployment | undefined;
  let servers: ServerProcess[] = [];
  const boards: BoardClient[] = [];
  let agent: ScriptedAgent | undefined;
  let monitor: HealthMonitor | undefined;
  let token = '';
  let contestId = 0;
  let quietTeamId = 0;
  const agentTeams: Array<{ id: number; key: string; url: string }> = [];
  const results: ScenarioResult[] = [];

  /** The database as the boards must end: each team's count and status, plus the attempt rows. */
  const readDatabase = async () => {
    const conn = await mysql.createConnection({ uri: db!.url(DATABASE), connectTimeout: 5_000 });
    try {
      const [teams] = await conn.query(
        'select id, number_attempts, status_team_id from teams where contests_id = ? order by id',
        [contestId],
      );
      const [counts] = await conn.query('select count(*) as n from attempts');
      const rows = teams as Array<{ id: number; number_attempts: number; status_team_id: number }>;
      return {
        teams: rows.map((t) => ({
          id: t.id,
          count: Number(t.number_attempts),
          status: Number(t.status_team_id),
        })),
        rows: Number((counts as Array<{ n: number }>)[0]!.n),
        sum: rows.reduce((total, t) => total + Number(t.number_attempts), 0),
      };
    } finally {
      await conn.end();
    }
  };

  /** How `board` differs from `teams` (empty when equal), one line per difference. */
  const boardDiff = (board: BoardClient, teams: Array<{ id: number; count: number; status: number }>) => {
    const diff: string[] = [];
    for (const team of teams) {
      const row = board.teams.get(team.id);
      if (!row) diff.push(`team ${team.id} missing`);
      else if (row.number_attempts !== team.count || row.status_team.id !== team.status) {
        diff.push(
          `team ${team.id}: board ${row.number_attempts}/${row.status_team.id}, database ${team.count}/${team.status}`,
        );
      }
    }
    for (const id of board.teams.keys())
      if (!teams.some((t) => t.id === id)) diff.push(`team ${id} not in the database`);
    return diff;
  };

  beforeAll(async () => {
    [db, redis] = await Promise.all([startMariaDb(), startRedis()]);
    // Started together, as in production: the migration lock lets one of them migrate.
    deployment = await startDeployment({ processes: 2, databaseUrl: db.url(DATABASE), redisUrl: redis.url });
    servers = deployment.servers;
    const admin = await deployment.admin();
    token = admin.token!;
    // The first contest becomes the active one by itself.
    contestId = await admin.createContest();
    const coach = await admin.createCoach('Dra. Elena Ruiz');
    for (const levelsId of Object.values(LEVELS)) {
      for (let i = 1; i <= TEAMS_PER_LEVEL; i++) {
        const team = await admin.createTeam(`Equipo ${levelsId}-${i}`, levelsId, coach);
        const key = await admin.generateAgentKey(team.id);
        // Each lab machine reports to one process, as behind a fixed address.
        agentTeams.push({ id: team.id, key, url: servers[agentTeams.length % servers.length]!.url });
      }
    }
    // A team whose agent is quiet: only a judge's block changes it, so only a push or a refetch shows it.
    quietTeamId = (await admin.createTeam('Equipo sin agente', LEVELS.basico, coach)).id;

    monitor = new HealthMonitor(servers.map((s) => s.url));
    agent = new ScriptedAgent(agentTeams, { ratePerSecond: ATTEMPTS_PER_S });
    // Reconnection backoff capped at 2 s (the web keeps socket.io's 5 s) to keep the suite short.
    for (const server of servers) boards.push(new BoardClient(server.url, token, 2_000));
    await Promise.all(boards.map((board) => board.waitConnected(15_000)));
  }, 180_000);

  afterAll(async () => {
    // Each step on its own, so one failure does not leave daemons or folders behind.
    const steps: Array<() => unknown> = [
      () => boards.forEach((board) => board.close()),
      () => agent?.stop(),
      () => monitor?.stop(),
      () => db?.running && db.frozen && db.thaw(),
      // The processes and their data folder; the database goes with its MariaDB.
      () => deployment?.stop(),
      () => redis?.destroy(),
      () => db?.destroy(),
    ];
    for (const step of steps) {
      try {
        await step();
      } catch (err) {
        console.error('fault suite cleanup:', err);
      }
    }
    if (results.length > 0) console.log(formatTable(results));
  }, 60_000);

  /**
   * Runs one scenario with the load on: fault, outage, restore, recovery, then a drained outbox and
   * the checks. Server-behaviour checks are soft, so one run reports every gap at once.
   */
  const runScenario = async (scenario: Scenario) => {
    onTestFailed(() => {
      for (const server of servers) console.error(`--- server ${server.port} ---\n${server.output(30)}`);
      console.error(`--- mariadb ---\n${db?.logTail(15)}\n--- redis ---\n${redis?.logTail(10)}`);
      boards.forEach((b, i) =>
        console.error(
          `board ${i}: connects ${b.connects.length}, drops [${b.disconnects.join(', ')}], ` +
            `refused [${b.connectErrors.join(', ')}], snapshot errors [${b.snapshotErrors.join(', ')}]` +
            (b.sessionEnded ? ', session ended' : ''),
        ),
      );
    });
    const a = agent!;
    const m = monitor!;
    // A previous scenario may have left a process dead or hung (its checks failed then): restart it,
    // so this scenario starts from a healthy system and reports its own gaps.
    const isHealthy = (server: ServerProcess) =>
      fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(3_000) })
        .then((r) => r.status === 200)
        .catch(() => false);
    if (!(await eventually(async () => (await Promise.all(servers.map(isHealthy))).every(Boolean), 15_000))) {
      for (const server of servers) {
        if (server.alive && (await isHealthy(server))) continue;
        console.warn(
          `${scenario.name}: server ${server.port} was not healthy before the fault; restarting it`,
        );
        server.note('restarted by the test: not healthy before the fault');
        await server.kill();
        // One retry: a start can fail while the machine is still busy with the previous scenario.
        await server.start().catch(() => server.start());
      }
    }
    expect(
      (await Promise.all(servers.map(isHealthy))).every(Boolean),
      'both processes healthy before the fault',
    ).toBe(true);

    a.resume();
    await sleep(1_500);
    const faultAt = Date.now();
    servers.forEach((server) => server.note(`${scenario.name}: fault`));
    await scenario.fault();
    // A judge blocks or unblocks the quiet team during the outage, through a process left running.
    const judgeUrl = servers[scenario.killedServer === 0 ? 1 : 0]!.url;
    const toggle = sleep(scenario.outageMs / 2).then(() =>
      fetch(`${judgeUrl}/api/descalificarTeam/${quietTeamId}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(15_000),
      })
        .then((r) => r.status)
        .catch((err: Error) => err.name),
    );
    await sleep(faultAt + scenario.outageMs - Date.now());
    const restoreAt = Date.now();
    await scenario.restore();
    // The fault ends when the component answers again (a restarted MariaDB, Redis or server process);
    // the outage window and the recovery times are measured from here.
    const restoredAt = Date.now();
    servers.forEach((server) => server.note(`${scenario.name}: restored`));

    const affected =
      scenario.killedServer === undefined ? servers.map((s) => s.url) : [servers[scenario.killedServer]!.url];
    const firstAckAfter = (url: string) =>
      a.requests.find((r) => r.url === url && r.acked > 0 && r.answeredAt >= restoredAt);
    await eventually(
      () =>
        servers.every((s) => m.first(s.url, restoredAt, (p) => p.status === 200, restoredAt)) &&
        affected.every((url) => firstAckAfter(url)),
      RECOVERY_LIMIT_MS + 5_000,
    );
    // Some more load after recovery, then stop making attempts and deliver what is left.
    await sleep(2_000);
    a.pause();
    const drained = await a.drained(20_000);
    const toggleStatus = await toggle;

    // Measures.
    // Only probes sent during the outage count: a 503 after it would be a late one, not the report.
    const first503 = servers.map((s) =>
      m.first(s.url, faultAt, (p) => p.status === 503 && p.sentAt < restoredAt),
    );
    const healthOk = servers.map((s) => m.first(s.url, restoredAt, (p) => p.status === 200, restoredAt));
    const acks = affected.map(firstAckAfter);
    const during = a.requests.filter((r) => r.sentAt >= faultAt && r.sentAt < restoredAt);
    const countBy = (statuses: Array<number | string>) => {
      const counts: Record<string, number> = {};
      for (const status of statuses) counts[String(status)] = (counts[String(status)] ?? 0) + 1;
      return counts;
    };
    const outageStatuses = countBy(during.map((r) => r.status));
    const healthDuring = servers.map((s) =>
      countBy(
        m.probes
          .filter((p) => p.url === s.url && p.sentAt >= faultAt && p.sentAt < restoredAt)
          .map((p) => p.status),
      ),
    );
    const result: ScenarioResult = {
      name: scenario.name,
      first503: first503.map((p) => (p ? p.answeredAt - faultAt : undefined)),
      downParts: first503.map((p) =>
        p?.data
          ? Object.entries(p.data)
              .filter(([, v]) => v === 'down')
              .map(([k]) => k)
              .join('+')
          : '-',
      ),
      restoreMs: restoredAt - restoreAt,
      healthOk: healthOk.map((p) => (p ? p.answeredAt - restoredAt : undefined)),
      firstAck: acks.every(Boolean) ? Math.max(...acks.map((r) => r!.answeredAt - restoredAt)) : undefined,
      sent: a.sent,
      acked: a.acknowledged,
      outageStatuses,
      healthDuring,
      slowestMs: Math.max(0, ...during.map((r) => r.answeredAt - r.sentAt)),
    };
    results.push(result);
    // The slowest agent requests of the outage: when each was sent (ms after the fault), how long it took, its answer.
    const slowest = [...during]
      .sort((x, y) => y.answeredAt - y.sentAt - (x.answeredAt - x.sentAt))
      .slice(0, 5)
      .map((r) => `+${r.sentAt - faultAt}: ${r.answeredAt - r.sentAt} ms ${r.status}`);
    console.log(`${scenario.name}: ${JSON.stringify({ ...result, toggleStatus, slowest })}`);

    // 1. No process died but the one killed on purpose (which runs again), and the instances run.
    servers.forEach((server, i) =>
      expect.soft(server.alive, `server ${i} (${server.port}) alive; ended: ${server.exit}`).toBe(true),
    );
    expect.soft(db!.running && !db!.frozen, 'MariaDB runs').toBe(true);
    expect.soft(redis!.running, 'Redis runs').toBe(true);

    // 2. Health said so during the outage, and recovered.
    servers.forEach((server, i) => {
      if (i === scenario.killedServer) return;
      const outage = m.between(server.url, faultAt, restoredAt);
      if (scenario.down === null) {
        expect
          .soft(
            outage.filter((p) => p.status !== 200).map((p) => p.status),
            `server ${i}: health 200 while the other process was down`,
          )
          .toEqual([]);
      } else {
        const probe = first503[i];
        expect.soft(probe, `server ${i}: /api/health answered 503 during the fault`).toBeDefined();
        expect
          .soft(probe?.data?.[scenario.down], `server ${i}: ${scenario.down} 'down' in the health answer`)
          .toBe('down');
        expect
          .soft(
            result.first503[i] ?? Infinity,
            `server ${i}: first 503 ${result.first503[i]} ms after the fault`,
          )
          .toBeLessThanOrEqual(FIRST_503_LIMIT_MS);
      }
      expect
        .soft(
          result.healthOk[i] ?? Infinity,
          `server ${i}: health 200 ${result.healthOk[i]} ms after the restore`,
        )
        .toBeLessThanOrEqual(RECOVERY_LIMIT_MS);
    });
    // 3. Agents were answered 200 or 503 with a Spanish message, never hung, and were acknowledged again.
    const answeredBy = (r: AgentRequest) => servers.findIndex((s) => s.url === r.url);
    const badAnswers = during.filter(
      (r) =>
        answeredBy(r) !== scenario.killedServer &&
        !(
          r.status === 200 ||
          (r.status === 503 &&
            r.failure?.success === false &&
            typeof r.failure.message === 'string' &&
            r.failure.message.length > 0)
        ),
    );
    expect
      .soft(
        badAnswers
          .map((r) => `${r.status} ${JSON.stringify(r.failure ?? {})} in ${r.answeredAt - r.sentAt} ms`)
          .slice(0, 10),
        'agent answers during the fault: only 200, or 503 {success:false, message}',
      )
      .toEqual([]);
    if (scenario.down === 'redis') {
      // Without Redis each process keeps serving REST: attempts are acknowledged during the outage.
      for (const server of servers) {
        expect
          .soft(
            during.some((r) => r.url === server.url && r.acked > 0 && r.answeredAt < restoredAt),
            `server ${server.port}: attempts acknowledged without Redis`,
          )
          .toBe(true);
      }
    }
    if (scenario.down === 'database') {
      expect
        .soft(outageStatuses['503'] ?? 0, 'the agent got 503 while the database was down')
        .toBeGreaterThan(0);
    }
    expect
      .soft(result.firstAck ?? Infinity, `first attempt acknowledged ${result.firstAck} ms after the restore`)
      .toBeLessThanOrEqual(RECOVERY_LIMIT_MS);
    expect
      .soft(
        typeof toggleStatus === 'number' && [200, 503].includes(toggleStatus),
        `judge's block during the fault answered ${toggleStatus}`,
      )
      .toBe(true);

    // 4. Nothing lost or counted twice: sent = acknowledged = rows = sum of the counters.
    expect.soft(drained, `outbox drained (${a.pending} left)`).toBe(true);
    expect.soft(a.acknowledged, 'acknowledged = sent').toBe(a.sent);
    const database = await readDatabase();
    expect.soft(database.rows, 'attempt rows = acknowledged').toBe(a.acknowledged);
    expect.soft(database.sum, 'sum of number_attempts = rows').toBe(database.rows);

    // 5. Every board ends equal to the database.
    let diffs: string[][] = [];
    await eventually(async () => {
      const now = await readDatabase();
      diffs = boards.map((board) => boardDiff(board, now.teams));
      return diffs.every((d) => d.length === 0) && boards.every((board) => board.connected);
    }, BOARD_SETTLE_MS);
    boards.forEach((board, i) =>
      expect.soft(board.connected, `board ${i} (${board.url}) connected again by itself`).toBe(true),
    );
    boards.forEach((board, i) =>
      expect.soft(diffs[i]!.slice(0, 10), `board ${i} (${board.url}) equals the database`).toEqual([]),
    );
  };

  it('MariaDB killed for 5 s and restarted', async () => {
    await runScenario({
      name: 'kill MariaDB',
      down: 'database',
      outageMs: 5_000,
      fault: () => db!.kill(),
      restore: () => db!.start(),
    });
  }, 120_000);

  it('a server process killed and restarted on its port', async () => {
    await runScenario({
      name: 'kill server',
      down: null,
      killedServer: 1,
      outageMs: 3_000,
      fault: () => servers[1]!.kill('SIGKILL'),
      restore: () => servers[1]!.start(),
    });
  }, 150_000);

  it('Redis killed for 5 s and restarted', async () => {
    await runScenario({
      name: 'kill Redis',
      down: 'redis',
      outageMs: 5_000,
      fault: () => redis!.kill(),
      restore: () => redis!.start(),
    });
  }, 120_000);

  it('MariaDB frozen for 12 s and thawed', async () => {
    await runScenario({
      name: 'freeze MariaDB',
      down: 'database',
      // Longer than the server's database time limits and than the agent's 10 s request timeout, so a
      // request sent during the freeze must be answered by the server's own limits: with 10 s, the
      // thaw would answer the ones still waiting just before the agent gives up, or just after.
      outageMs: 12_000,
      fault: () => db!.freeze(),
      restore: () => db!.thaw(),
    });
  }, 120_000);
});

/** The measured timings as a plain-text table (ms; `-` when not seen; `A/B` per process). */
function formatTable(results: ScenarioResult[]): string {
  const counts = (byStatus: Record<string, number>) =>
    Object.entries(byStatus)
      .map(([status, n]) => `${status}:${n}`)
      .join(' ');
  const ms = (values: Array<number | undefined>) =>
    values.map((v) => (v === undefined ? '-' : String(v))).join('/');
  const header = [
    'scenario',
    'fault→503 (ms)',
    'down',
    'restore (ms)',
    '→health 200 (ms)',
    '→1st ack (ms)',
    'sent',
    'acked',
    'health during fault',
    'agent during fault',
    'slowest (ms)',
  ];
  const rows = results.map((r) => [
    r.name,
    ms(r.first503),
    r.downParts.join('/'),
    String(r.restoreMs),
    ms(r.healthOk),
    ms([r.firstAck]),
    String(r.sent),
    String(r.acked),
    r.healthDuring.map(counts).join(' / '),
    counts(r.outageStatuses),
    String(r.slowestMs),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return ['Fault suite:', line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
