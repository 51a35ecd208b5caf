import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { attemptLogRowSchema, contestLogSchema, type AgentConfig } from '@concurso/shared';
import {
  agentTeam,
  createContest,
  injectAttempts,
  signInStaff,
  startTestServer,
  type AgentAttemptBody,
  type TestServer,
} from '@concurso/testkit';
import { FINGERPRINT_MEMORY_MS, FingerprintLearner } from '../src/modules/agent/fingerprint-learner.js';
import { Process } from '../src/db/entities.js';

/** A SHA-256 as the agent sends it (64 lower-case hex digits), different for each `seed`. */
const sha = (seed: string) => createHash('sha256').update(seed).digest('hex');

/**
 * Issue 14, "Executable fingerprints" on the server: an attempt with `sha256` teaches the fingerprint
 * of the blocked process it was reported under, the agents' config then carries it, and the name a
 * renamed copy ran as (`executable`) is stored and listed in the logs.
 */
describe('executable fingerprints (issue 14)', () => {
  let server: TestServer;
  let judge: string;
  let admin: string;
  let contestId: number;
  let team: { id: number; name: string; key: string };

  const attempt = (process: string, extra: Partial<AgentAttemptBody> = {}): AgentAttemptBody => ({
    event_id: randomUUID(),
    process,
    occurred_at: new Date().toISOString(),
    ...extra,
  });
  const report = async (...attempts: AgentAttemptBody[]) => {
    const res = await injectAttempts(server.app, team.key, attempts);
    expect(res.statusCode, res.body).toBe(200);
  };
  const config = async (key = team.key): Promise<AgentConfig> => {
    const res = await server.app.inject({
      method: 'GET',
      url: '/api/agent/config',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as AgentConfig;
  };
  const staffGet = async (url: string) => {
    const res = await server.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${judge}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as unknown;
  };
  /** The process a fingerprint was learned for, straight from the database (null: not learned). */
  const learnedFor = async (sha256: string): Promise<string | null> => {
    const rows = await server.orm.em
      .fork()
      .execute<Array<{ name: string }>>(
        'select p.name from process_fingerprints f join processes p on p.id = f.processes_id where f.sha256 = ?',
        [sha256],
      );
    return rows[0]?.name ?? null;
  };

  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'error' });
    ({ admin, judge } = await signInStaff(server, 'huellas'));
    contestId = (await createContest(server.orm)).id;
    team = await agentTeam(server, admin, {
      contestId,
      name: 'Los Hashes',
      blocked: ['chrome.exe', 'Discord.exe'],
    });
  });
  afterAll(async () => server?.close());

  it('starts with no fingerprints and observing on in the config', async () => {
    const data = await config();
    expect(data.blocked).toEqual(['chrome.exe', 'Discord.exe']);
    expect(data.fingerprints).toEqual([]);
    expect(data.observe).toBe(true);
  });

  it('learns the fingerprint of an attempt for the blocked process, named without regard to case', async () => {
    const chrome = sha('chrome-130');
    await report(attempt('CHROME.EXE', { sha256: chrome }));
    expect(await learnedFor(chrome)).toBe('chrome.exe');
    expect((await config()).fingerprints).toEqual([{ process: 'chrome.exe', sha256: chrome }]);
  });

  it('stores the name a renamed copy ran as and lists it in both logs', async () => {
    const chrome = sha('chrome-131');
    await report(attempt('chrome.exe', { sha256: chrome, executable: 'notepad.exe' }));
    const [teamRow] = attemptLogRowSchema.array().parse(await staffGet(`/api/teamAttemptsLog/${team.id}`));
    expect(teamRow).toMatchObject({ process: 'chrome.exe', executable: 'notepad.exe' });

    const log = contestLogSchema.parse(await staffGet(`/api/contestLog?teams_id=${team.id}`));
    const attempts = log.rows.filter((row) => row.kind === 'intento');
    expect(attempts[0]).toMatchObject({ process: 'chrome.exe', executable: 'notepad.exe' });
    // An attempt caught by its name carries no executable.
    expect(attempts.at(-1)).toMatchObject({ process: 'CHROME.EXE', executable: null });

    // Both fingerprints of chrome.exe now go to the agents, sorted.
    expect((await config()).fingerprints).toEqual(
      [sha('chrome-130'), chrome].sort().map((sha256) => ({ process: 'chrome.exe', sha256 })),
    );
  });

  it('learns nothing for a name the catalogue lacks, and a known fingerprint keeps its first process', async () => {
    const unknown = sha('nadie');
    await report(attempt('nadie.exe', { sha256: unknown }));
    expect(await learnedFor(unknown)).toBeNull();

    // chrome-130 was learned for chrome.exe: Discord.exe reported with it does not take it over.
    await report(attempt('Discord.exe', { sha256: sha('chrome-130') }));
    expect(await learnedFor(sha('chrome-130'))).toBe('chrome.exe');
    expect((await config()).fingerprints.map((f) => f.process)).toEqual(['chrome.exe', 'chrome.exe']);
  });

  it('gives a process outside the blocked set no place in the config, and an inactive contest none', async () => {
    const em = server.orm.em.fork();
    em.create(Process, { name: 'steam.exe' });
    await em.flush();
    const steam = sha('steam');
    await report(attempt('steam.exe', { sha256: steam }));
    expect(await learnedFor(steam)).toBe('steam.exe');
    expect((await config()).fingerprints.map((f) => f.process)).not.toContain('steam.exe');

    const other = await createContest(server.orm, '2027-02-10', { active: true });
    try {
      const data = await config();
      expect(data.blocked).toEqual([]);
      expect(data.fingerprints).toEqual([]);
      expect(data.observe).toBe(false);
    } finally {
      const res = await server.app.inject({
        method: 'POST',
        url: `/api/activateContest/${contestId}`,
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(res.statusCode, `${res.body} (contest ${other.id})`).toBe(200);
    }
    expect((await config()).fingerprints).toHaveLength(2);
  });

  it('teaches each pair once per memory span, and again after it (a process deleted and created anew)', async () => {
    let now = Date.now();
    const learner = new FingerprintLearner(
      () => server.orm.em.fork(),
      (err) => {
        throw err;
      },
      () => now,
    );
    const discord = sha('discord-2');
    const forget = () =>
      server.orm.em.fork().execute('delete from process_fingerprints where sha256 = ?', [discord], 'run');

    await learner.learn([{ process: 'discord.exe', sha256: discord }]);
    expect(await learnedFor(discord)).toBe('Discord.exe');
    await forget();
    // Remembered: no statement, so the deleted row stays deleted.
    await learner.learn([{ process: 'DISCORD.exe', sha256: discord }]);
    expect(await learnedFor(discord)).toBeNull();
    now += FINGERPRINT_MEMORY_MS;
    await learner.learn([{ process: 'discord.exe', sha256: discord }]);
    expect(await learnedFor(discord)).toBe('Discord.exe');
  });
});
