import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attemptLogRowSchema, contestLogSchema, observedProcessesSchema } from '@concurso/shared';
import {
  agentTeam,
  callAs,
  createContest,
  injectAttempts,
  injectObserved,
  observedEntry,
  signInStaff,
  startTestServer,
  type AgentAttemptBody,
  type TestServer,
} from '@concurso/testkit';

/**
 * What ran a program (agent/src/README.md, "Loaders and interpreters"): an attempt the agent made
 * against a script run by python3 or a file run by the dynamic loader keeps `via`, and both logs
 * answer it, so the board and the logs say «chatgpt (vía python3)»; so does an observed program.
 */
describe('attempts and observed programs keep what ran their program (via)', () => {
  let server: TestServer;
  let judge: string;
  let team: { id: number; key: string };

  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'error' });
    const staff = await signInStaff(server, 'via');
    judge = staff.judge;
    const contestId = (await createContest(server.orm)).id;
    team = await agentTeam(server, staff.admin, { contestId, name: 'Los Intérpretes', blocked: ['chatgpt'] });
  });

  afterAll(async () => {
    await server?.close();
  });

  const attempt = (extra: Partial<AgentAttemptBody>): AgentAttemptBody => ({
    event_id: randomUUID(),
    process: 'chatgpt',
    occurred_at: new Date().toISOString(),
    ...extra,
  });

  const staffGet = async (url: string) => {
    const res = await callAs(server.app, judge, url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as unknown;
  };

  it('stores via and lists it in the team log and the contest log; null without it', async () => {
    const sent = [
      attempt({}),
      attempt({ via: 'python3' }),
      attempt({ via: 'ld-linux-x86-64.so.2', executable: 'notas', match: 'huella' }),
    ];
    for (const one of sent) {
      const res = await injectAttempts(server.app, team.key, [one]);
      expect(res.statusCode, res.body).toBe(200);
    }
    const rows = attemptLogRowSchema.array().parse(await staffGet(`/api/teamAttemptsLog/${team.id}`));
    expect(rows.map((r) => [r.executable, r.via])).toEqual([
      ['notas', 'ld-linux-x86-64.so.2'],
      [null, 'python3'],
      [null, null],
    ]);
    const log = contestLogSchema.parse(await staffGet(`/api/contestLog?teams_id=${team.id}`));
    const attempts = log.rows.filter((row) => row.kind === 'intento');
    expect(attempts.map((r) => r.via)).toEqual(['ld-linux-x86-64.so.2', 'python3', null]);
  });

  it('keeps what ran an observed program and lists it in the inventory', async () => {
    const sha = 'a'.repeat(64);
    const sent = [
      { ...observedEntry('chatgpt.py', sha), via: 'python3' },
      observedEntry('notas', 'b'.repeat(64)),
    ];
    const res = await injectObserved(server.app, team.key, sent);
    expect(res.statusCode, res.body).toBe(200);
    // A later report without it (an older agent) keeps what was known.
    expect((await injectObserved(server.app, team.key, [observedEntry('chatgpt.py', sha)])).statusCode).toBe(
      200,
    );
    const { rows } = observedProcessesSchema.parse(await staffGet('/api/observedProcesses'));
    expect(rows.find((r) => r.name === 'chatgpt.py')).toMatchObject({ via: 'python3', count: 2 });
    expect(rows.find((r) => r.name === 'notas')).toMatchObject({ via: null });
  });

  it('refuses a via that is not printable text of at most 64 characters', async () => {
    for (const via of ['x'.repeat(65), 'python\u0000', '']) {
      const res = await injectAttempts(server.app, team.key, [attempt({ via })]);
      expect(res.statusCode, via).toBe(422);
    }
  });
});
