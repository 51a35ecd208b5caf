import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { io as ioClient } from 'socket.io-client';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_CHANNEL_LIMITS,
  AGENT_MAX_BATCH,
  AGENT_NAMESPACE,
  LAB_MAX_MACHINES_PER_TEAM,
  LEVELS,
  MESSAGES,
  SOCKET_PATH,
} from '@concurso/shared';
import {
  connectAgentSocket,
  startDeployment,
  type AgentSocket,
  type Deployment,
  type HttpApi,
} from '@concurso/testkit';
import { healthPoller } from './support/health-poller.js';

/**
 * The lab channel under abuse (docs/design.md section 6a: every agent key is possibly stolen, and nothing
 * one key sends may grow the server without bound or slow another team's machines). One real server
 * process with `npm start`'s heap cap (320 MB), real socket.io-client and HTTP from the test. Prints
 * the figures the closing note quotes: RSS and health during the receipt burst and the socket storm,
 * the honest agent's policy delay, rows kept of a 50,000-attempt burst.
 */
describe('the lab channel under abuse', () => {
  let deployment: Deployment;
  let admin: HttpApi;
  let url: string;
  let contestId: number;
  let thief: { id: number; key: string };
  let honest: { id: number; key: string };
  const open: AgentSocket[] = [];

  /** The server process's resident memory, in MB (/proc/<pid>/status). */
  const rssMb = () => {
    const status = readFileSync(`/proc/${deployment.servers[0]!.pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
  };
  /** Samples `rssMb` every 50 ms until stopped; answers the highest. */
  const rssPeak = () => {
    let peak = rssMb();
    const timer = setInterval(() => (peak = Math.max(peak, rssMb())), 50);
    return () => {
      clearInterval(timer);
      return Math.max(peak, rssMb());
    };
  };
  /** CPU time the server process and this test process have used, in ms (/proc/<pid>/stat, 100 Hz ticks). */
  const cpuMs = (pid: number | string) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  const p = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  };

  beforeAll(async () => {
    deployment = await startDeployment({ nodeFlags: ['--max-old-space-size=320'] });
    url = deployment.urls[0]!;
    admin = await deployment.admin();
    contestId = await admin.createContest();
    const coach = await admin.createCoach('Coach Abuso');
    const one = await admin.createTeam('Equipo Ladrón', LEVELS.basico, coach, contestId);
    const two = await admin.createTeam('Equipo Honrado', LEVELS.basico, coach, contestId);
    thief = { id: one.id, key: await admin.generateAgentKey(one.id) };
    honest = { id: two.id, key: await admin.generateAgentKey(two.id) };
  }, 120_000);
  afterAll(async () => {
    open.forEach((socket) => socket.close());
    await deployment?.stop();
  });

  it('survives 20,000 receipts from one key: the socket is closed, the real receipt counts once', async () => {
    const { data: message } = await admin.call<{ data: { id: number } }>('/api/sendMessage', {
      target: 'equipo',
      id: thief.id,
      text: 'Quedan 30 minutos.',
    });
    const { socket } = await connectAgentSocket(url, thief.key);
    open.push(socket);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the pending message arrives
    const before = rssMb();
    const peak = rssPeak();
    const health = healthPoller(url);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    socket.emit('agent.message.delivered', message.id);
    for (let i = 0; i < 20_000; i++) socket.emit('agent.message.delivered', 1_000_000 + i);
    const reason = await closed;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const waits = await health.stop();
    const highest = peak();
    console.log(
      `receipt burst: RSS ${before.toFixed(0)} MB before, peak ${highest.toFixed(0)} MB ` +
        `(+${(highest - before).toFixed(0)} MB); health ${waits.length} checks, ` +
        `p50 ${p(waits, 0.5).toFixed(0)} ms, p95 ${p(waits, 0.95).toFixed(0)} ms, max ${Math.max(...waits).toFixed(0)} ms`,
    );
    expect(reason).toBe('io server disconnect');
    expect(deployment.servers[0]!.alive).toBe(true);
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    expect(highest - before).toBeLessThan(100);
    // The one real receipt was recorded, once; the made-up ids cost nothing.
    const rows = (await admin.data<{ rows: Array<{ id: number; delivered: number }> }>('/api/messages')).rows;
    expect(rows.find((row) => row.id === message.id)?.delivered).toBe(1);
  }, 60_000);

  it(`keeps at most ${LAB_MAX_MACHINES_PER_TEAM} sockets of one key through a 3,000-socket storm, and an honest agent gets its policy`, async () => {
    const before = rssMb();
    const peak = rssPeak();
    const health = healthPoller(url);
    const started = {
      at: performance.now(),
      server: cpuMs(deployment.servers[0]!.pid!),
      tester: cpuMs('self'),
    };
    const storm: Array<ReturnType<typeof ioClient>> = [];
    const outcomes = { connected: 0, limited: 0, other: 0 };
    const connectOne = () =>
      new Promise<void>((resolve) => {
        const socket = ioClient(`${url}${AGENT_NAMESPACE}`, {
          path: SOCKET_PATH,
          auth: { key: thief.key },
          transports: ['websocket'],
          reconnection: false,
          forceNew: true,
        });
        storm.push(socket);
        socket.once('connect', () => {
          outcomes.connected++;
          resolve();
        });
        socket.once('connect_error', (err) => {
          if (err.message === 'rate_limited') outcomes.limited++;
          else outcomes.other++;
          socket.close();
          resolve();
        });
      });
    const stormDone = (async () => {
      for (let start = 0; start < 3_000; start += 150) {
        await Promise.all(Array.from({ length: 150 }, connectOne));
      }
    })();
    // In the middle of it, an honest machine of another team connects.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const asked = performance.now();
    const { socket: honestSocket, policy } = await connectAgentSocket(url, honest.key);
    const delay = performance.now() - asked;
    open.push(honestSocket);
    await stormDone;
    const wall = performance.now() - started.at;
    const serverCpu = (cpuMs(deployment.servers[0]!.pid!) - started.server) / wall;
    const testerCpu = (cpuMs('self') - started.tester) / wall;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stillOpen = storm.filter((socket) => socket.connected).length;
    const waits = await health.stop();
    const highest = peak();
    console.log(
      `socket storm: ${outcomes.connected} connected, ${outcomes.limited} refused rate_limited, ` +
        `${outcomes.other} other; ${stillOpen} still open; honest agent's policy after ${delay.toFixed(0)} ms; ` +
        `RSS ${before.toFixed(0)} → peak ${highest.toFixed(0)} MB; health p95 ${p(waits, 0.95).toFixed(0)} ms; ` +
        `over ${(wall / 1000).toFixed(1)} s the server used ${(serverCpu * 100).toFixed(0)} % of a core, this tester ${(testerCpu * 100).toFixed(0)} %`,
    );
    storm.forEach((socket) => socket.close());
    expect(policy.team.id).toBe(honest.id);
    expect(outcomes.connected).toBeLessThanOrEqual(AGENT_CHANNEL_LIMITS.handshakesPerMinute);
    expect(outcomes.limited).toBeGreaterThanOrEqual(3_000 - AGENT_CHANNEL_LIMITS.handshakesPerMinute);
    expect(stillOpen).toBeLessThanOrEqual(LAB_MAX_MACHINES_PER_TEAM);
    expect(deployment.servers[0]!.alive).toBe(true);
  }, 120_000);

  it('keeps at most 10,000 attempt rows per team; past it 429 with Retry-After, nothing more stored', async () => {
    const post = (attempts: unknown[]) =>
      fetch(`${url}/api/agent/attempts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${honest.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ attempts }),
      });
    const batch = () =>
      Array.from({ length: AGENT_MAX_BATCH }, () => ({
        event_id: randomUUID(),
        process: 'juego-abuso.exe',
        occurred_at: new Date().toISOString(),
      }));
    const statuses = new Map<number, number>();
    let refused: Response | undefined;
    for (let sent = 0; sent < 50_000; sent += AGENT_MAX_BATCH) {
      const res = await post(batch());
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 429) refused ??= res;
      else await res.arrayBuffer();
    }
    const db = await mysql.createConnection(deployment.databaseUrl);
    const [[counts]] = (await db.query(
      'select (select count(*) from attempts where teams_id = ?) as stored, ' +
        '(select number_attempts from teams where id = ?) as counted',
      [honest.id, honest.id],
    )) as unknown as [[{ stored: number; counted: number }]];
    await db.end();
    console.log(
      `50,000-attempt burst: ${counts.stored} rows kept, number_attempts ${counts.counted}; answers ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(Number(counts.stored)).toBe(AGENT_CHANNEL_LIMITS.attemptRowsPerTeam);
    expect(Number(counts.counted)).toBe(AGENT_CHANNEL_LIMITS.attemptRowsPerTeam);
    expect(refused?.headers.get('retry-after')).toBe(String(AGENT_CHANNEL_LIMITS.attemptsRetryAfterS));
    expect(((await refused!.json()) as { message: string }).message).toBe(MESSAGES.agentAttemptsCapReached);
    expect(statuses.get(200)).toBe(AGENT_CHANNEL_LIMITS.attemptRowsPerTeam / AGENT_MAX_BATCH);
  }, 120_000);

  it('refuses wrong keys past the limit per address, and a right key from another address still works', async () => {
    /** POST /api/agent/heartbeat with `key` from local address `from` (127.0.0.0/8 is all loopback). */
    const beat = (key: string, from: string) =>
      new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
        const target = new URL('/api/agent/heartbeat', url);
        const req = http.request(
          {
            host: target.hostname,
            port: target.port,
            path: target.pathname,
            method: 'POST',
            localAddress: from,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({
                status: res.statusCode!,
                retryAfter: res.headers['retry-after'] as string | undefined,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end('{}');
      });
    const answers: number[] = [];
    for (let i = 0; i < AGENT_CHANNEL_LIMITS.wrongKeysPerMinute + 20; i++) {
      answers.push((await beat(`ag_${randomUUID()}`, '127.0.0.77')).status);
    }
    const last = await beat(`ag_${randomUUID()}`, '127.0.0.77');
    console.log(
      `wrong keys from one address: ${answers.filter((s) => s === 401).length} × 401, ` +
        `${answers.filter((s) => s === 429).length} × 429`,
    );
    expect(answers.filter((s) => s === 401)).toHaveLength(AGENT_CHANNEL_LIMITS.wrongKeysPerMinute);
    expect(last.status).toBe(429);
    expect(Number(last.retryAfter)).toBeGreaterThan(0);
    expect((await beat(honest.key, '127.0.0.78')).status).toBe(200);
  }, 60_000);
});
