import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  FINGERPRINT_CLAIMS_PER_MINUTE,
  FINGERPRINT_MAX_PER_PROCESS,
  NETWORK_MAX_DESTINATIONS,
  NETWORK_MAX_LIST_BYTES,
  attemptLogRowSchema,
  contestLogSchema,
  processFingerprintsSchema,
  type AgentConfig,
} from '@concurso/shared';
import {
  agentTeam,
  attemptCounts,
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
import { FINGERPRINT_MEMORY_MS, FingerprintLearner } from '../src/modules/agent/fingerprint-learner.js';
import { Process } from '../src/db/entities.js';
import { recordClaims } from '../src/modules/fingerprints/fingerprints.service.js';

/** A SHA-256 as the agent sends it (64 lower-case hex digits), different for each `seed`. */
const sha = (seed: string) => createHash('sha256').update(seed).digest('hex');

const attempt = (process: string, extra: Partial<AgentAttemptBody> = {}): AgentAttemptBody => ({
  event_id: randomUUID(),
  process,
  occurred_at: new Date().toISOString(),
  ...extra,
});

/**
 * Fingerprints of renamed programs, as claims (docs/design.md section 6a): a
 * fingerprint one team's agent reports applies to that team's machines only, to every machine of the
 * contest once an admin confirms it or three teams claimed it, and nothing one key sends grows any
 * other team's config.
 */
describe('executable fingerprints as claims', () => {
  let server: TestServer;
  let judge: string;
  let admin: string;
  let contestId: number;
  type Key = { id: number; name: string; key: string };
  let a: Key;
  let b: Key;
  let c: Key;
  let d: Key;

  const report = async (team: Key, ...attempts: AgentAttemptBody[]) => {
    const res = await injectAttempts(server.app, team.key, attempts);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { counted: number };
  };
  const configOf = async (team: Key): Promise<AgentConfig> => {
    const res = await callAs(server.app, team.key, '/api/agent/config');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as AgentConfig;
  };
  const configBytes = async (team: Key) =>
    (await server.app.inject({ url: '/api/agent/config', headers: { authorization: `Bearer ${team.key}` } }))
      .rawPayload.length;
  const hashesOf = async (team: Key) => (await configOf(team)).fingerprints.map((f) => f.sha256);
  const processId = async (name: string) => (await server.orm.em.fork().findOneOrFail(Process, { name })).id;
  const screen = async (process: string) => {
    const res = await callAs(server.app, admin, `/api/processFingerprints/${await processId(process)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return processFingerprintsSchema.parse(res.body.data);
  };
  const rowOf = async (process: string, sha256: string) =>
    (await screen(process)).rows.find((row) => row.sha256 === sha256);
  const staffGet = async (url: string) => {
    const res = await callAs(server.app, judge, url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as unknown;
  };
  /** Runs `work` while polling `/api/health` every 20 ms; answers the worst latency seen (ms). */
  const worstHealth = async (work: () => Promise<void>): Promise<number> => {
    let worst = 0;
    let running = true;
    const poller = (async () => {
      while (running) {
        const started = performance.now();
        await fetch(`${server.url}/api/health`);
        worst = Math.max(worst, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    try {
      await work();
    } finally {
      running = false;
      await poller;
    }
    return worst;
  };

  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'error' });
    ({ admin, judge } = await signInStaff(server, 'huellas'));
    contestId = (await createContest(server.orm)).id;
    const blocked = ['chrome.exe', 'Discord.exe'];
    a = await agentTeam(server, admin, { contestId, name: 'Los Hashes', blocked });
    b = await agentTeam(server, admin, { contestId, name: 'Bytes Bravos', blocked });
    c = await agentTeam(server, admin, { contestId, name: 'Compiladores', blocked });
    d = await agentTeam(server, admin, { contestId, name: 'Depuradores', blocked });
  });
  afterAll(async () => server?.close());

  it('starts with no fingerprints and observing on in the config', async () => {
    const data = await configOf(a);
    expect(data.blocked).toEqual(['chrome.exe', 'Discord.exe']);
    expect(data.fingerprints).toEqual([]);
    expect(data.observe).toBe(true);
  });

  it("applies one team's forged fingerprint to its own machines only, to all at quorum, and to none once removed", async () => {
    // The probe: one attempt naming a blocked process with the SHA-256 of an innocent program.
    const sleep = sha('/usr/bin/sleep');
    await report(a, attempt('CHROME.EXE', { sha256: sleep }));
    expect(await hashesOf(a)).toEqual([sleep]);
    expect(await hashesOf(b)).toEqual([]);
    expect(await hashesOf(d)).toEqual([]);
    expect(await rowOf('chrome.exe', sleep)).toMatchObject({
      teams: 1,
      confirmed: false,
      applies_to_all: false,
      first_team: { name: 'Los Hashes' },
    });

    // Two more teams of the active contest report the same pair: quorum (3), every machine.
    await report(b, attempt('chrome.exe', { sha256: sleep }));
    expect(await hashesOf(d)).toEqual([]);
    await report(c, attempt('chrome.exe', { sha256: sleep }));
    for (const team of [a, b, c, d]) expect(await hashesOf(team)).toEqual([sleep]);
    expect(await rowOf('chrome.exe', sleep)).toMatchObject({
      teams: 3,
      applies_to_all: true,
      first_team: { name: 'Los Hashes' },
      last_team: { name: 'Compiladores' },
    });

    // The admin removes it: out of every config, the reporting teams' included.
    const { id } = (await rowOf('chrome.exe', sleep))!;
    const removed = await callAs(server.app, admin, `/api/deleteFingerprint/${id}`, {});
    expect(removed).toMatchObject({ status: 200, body: { message: 'Dato Eliminado.' } });
    for (const team of [a, b, c, d]) expect(await hashesOf(team)).toEqual([]);
  });

  it("applies an admin's confirmation to every machine, and keeps judges out of the fingerprints' calls", async () => {
    const chrome = sha('chrome-130');
    await report(a, attempt('chrome.exe', { sha256: chrome }));
    const { id } = (await rowOf('chrome.exe', chrome))!;
    expect((await callAs(server.app, judge, `/api/confirmFingerprint/${id}`, {})).status).toBe(403);
    expect((await callAs(server.app, judge, `/api/deleteFingerprint/${id}`, {})).status).toBe(403);
    expect((await callAs(server.app, judge, `/api/processFingerprints/1`)).status).toBe(403);
    expect(await hashesOf(d)).toEqual([]);

    const confirmed = await callAs(server.app, admin, `/api/confirmFingerprint/${id}`, {});
    expect(confirmed).toMatchObject({
      status: 200,
      body: { data: { id, confirmed: true, applies_to_all: true, teams: 1 }, message: 'Guardado' },
    });
    for (const team of [a, b, c, d]) expect(await hashesOf(team)).toContain(chrome);
    expect((await callAs(server.app, admin, '/api/confirmFingerprint/999999', {})).status).toBe(404);
    expect((await callAs(server.app, admin, '/api/deleteFingerprint/999999', {})).status).toBe(404);
    expect((await callAs(server.app, admin, '/api/processFingerprints/999999')).status).toBe(404);
  });

  it('stores the name a renamed copy ran as and lists it in both logs', async () => {
    const chrome = sha('chrome-131');
    await report(a, attempt('chrome.exe', { sha256: chrome, executable: 'notepad.exe' }));
    const [teamRow] = attemptLogRowSchema.array().parse(await staffGet(`/api/teamAttemptsLog/${a.id}`));
    expect(teamRow).toMatchObject({ process: 'chrome.exe', executable: 'notepad.exe' });

    const log = contestLogSchema.parse(await staffGet(`/api/contestLog?teams_id=${a.id}`));
    const attempts = log.rows.filter((row) => row.kind === 'intento');
    expect(attempts[0]).toMatchObject({ process: 'chrome.exe', executable: 'notepad.exe' });
    expect(attempts.at(-1)).toMatchObject({ process: 'CHROME.EXE', executable: null });
  });

  it('teaches nothing from a replayed event id, nor from a name outside the blocked set', async () => {
    const replayed = attempt('chrome.exe');
    expect((await report(b, replayed)).counted).toBe(1);
    const forged = sha('replayed');
    // The same event id again, now with a fingerprint: counted 0, so it claims nothing.
    expect((await report(b, { ...replayed, sha256: forged })).counted).toBe(0);
    expect(await rowOf('chrome.exe', forged)).toBeUndefined();
    expect(await hashesOf(b)).not.toContain(forged);

    // Probe 2: the browser's hash claimed first under a catalogue process that is not blocked.
    const em = server.orm.em.fork();
    em.create(Process, { name: 'notepad.exe' });
    await em.flush();
    const browser = sha('the-real-browser');
    await report(b, attempt('notepad.exe', { sha256: browser }));
    expect((await screen('notepad.exe')).rows).toEqual([]);
    expect(await hashesOf(b)).not.toContain(browser);
    // …so a later claim for the blocked process is not owned by anyone else: it counts.
    await report(b, attempt('chrome.exe', { sha256: browser }));
    expect(await hashesOf(b)).toContain(browser);
  });

  it('refuses (409) the attempts of a key of a team outside the active contest, storing and teaching nothing', async () => {
    const next = await createContest(server.orm, '2027-02-10', { active: false });
    const outsider = await agentTeam(server, admin, {
      contestId: next.id,
      name: 'Próximo Semestre',
      blocked: ['chrome.exe'],
    });
    const forged = sha('next-term');
    const res = await injectAttempts(server.app, outsider.key, [attempt('chrome.exe', { sha256: forged })]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      success: false,
      message: 'El concurso de este equipo no es el activo.',
    });
    expect(await attemptCounts(server.orm, outsider.id)).toEqual({ rows: 0, count: 0 });
    const stored = await server.orm.em
      .fork()
      .execute<Array<{ n: number }>>('select count(*) as n from process_fingerprints where sha256 = ?', [
        forged,
      ]);
    expect(Number(stored[0]!.n)).toBe(0);
    const config = await configOf(outsider);
    expect(config).toMatchObject({ blocked: [], fingerprints: [], observe: false });
  });

  it("records an admin's 'Bloquear' of an observed program as a claim of the teams that ran it, for their machines only", async () => {
    // Probe 3: a made-up program whose hash is an innocent one, reported as observed by one team.
    const innocent = sha('gcc');
    const sent = await injectObserved(server.app, c.key, [observedEntry('juego-gratis.exe', innocent)]);
    expect(sent.statusCode, sent.body).toBe(200);
    const inventory = (await staffGet('/api/observedProcesses')) as {
      rows: Array<{ name: string; teams: string[] }>;
    };
    // What the admin's dialog shows before confirming: who reported it.
    expect(inventory.rows.find((row) => row.name === 'juego-gratis.exe')?.teams).toEqual(['Compiladores']);

    const blocked = await callAs(server.app, admin, '/api/blockObservedProcess', {
      name: 'juego-gratis.exe',
      sha256: innocent,
    });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    expect(await rowOf('juego-gratis.exe', innocent)).toMatchObject({
      teams: 1,
      confirmed: false,
      first_team: { name: 'Compiladores' },
    });
    expect(await hashesOf(c)).toContain(innocent);
    for (const team of [a, b, d]) expect(await hashesOf(team)).not.toContain(innocent);
    // Blocked by name for everyone all the same.
    expect((await configOf(a)).blocked).toContain('juego-gratis.exe');
  });

  it('keeps at most 32 fingerprints per process, a few new claims per team per minute, never a confirmed one out', async () => {
    const chromeId = await processId('chrome.exe');
    const before = (await screen('chrome.exe')).rows;
    const confirmed = before.filter((row) => row.confirmed).map((row) => row.sha256);
    expect(confirmed.length).toBeGreaterThan(0);

    // One minute's worth: only FINGERPRINT_CLAIMS_PER_MINUTE of 50 new claims are stored.
    const now = new Date();
    const claims = (n: number, seed: string) =>
      Array.from({ length: n }, (_, i) => ({
        teamId: d.id,
        contestId,
        process: 'chrome.exe',
        sha256: sha(`${seed}-${i}`),
      }));
    const stored = await recordClaims(server.orm.em.fork(), claims(50, 'minute'), now);
    expect(stored).toBe(FINGERPRINT_CLAIMS_PER_MINUTE);

    // Forty more minutes of a flooding key: the process never holds more than 32, confirmed ones stay.
    for (let minute = 1; minute <= 40; minute++) {
      await recordClaims(
        server.orm.em.fork(),
        claims(10, `flood-${minute}`),
        new Date(now.getTime() + minute * 61_000),
      );
    }
    const after = (await screen('chrome.exe')).rows;
    expect(after.length).toBe(FINGERPRINT_MAX_PER_PROCESS);
    for (const sha256 of confirmed) expect(after.map((row) => row.sha256)).toContain(sha256);
    const count = await server.orm.em
      .fork()
      .execute<Array<{ n: number }>>(
        'select count(*) as n from process_fingerprints where processes_id = ?',
        [chromeId],
      );
    expect(Number(count[0]!.n)).toBe(FINGERPRINT_MAX_PER_PROCESS);
    // The flooding team's claims reach its own config only.
    const newest = sha('flood-40-0');
    expect(await hashesOf(d)).toContain(newest);
    for (const team of [a, b, c]) expect(await hashesOf(team)).not.toContain(newest);
  });

  it('keeps every config small and the server answering through 29,000 forged fingerprints', async () => {
    const sizesBefore = { a: await configBytes(a), b: await configBytes(b) };
    const replayed = attempt('chrome.exe');
    await report(a, replayed);
    let fresh = 0;
    const worst = await worstHealth(async () => {
      // The probe: 20,000 random fingerprints replaying one event id, in 40 requests of 500…
      for (let i = 0; i < 40; i++) {
        const batch = Array.from({ length: 500 }, () => ({
          ...replayed,
          sha256: randomBytes(32).toString('hex'),
        }));
        const res = await injectAttempts(server.app, a.key, batch);
        expect(res.statusCode, res.body).toBe(200);
      }
      // …and 9,000 more as new attempts (counted: the key's own team pays for them; a team keeps at
      // most AGENT_CHANNEL_LIMITS.attemptRowsPerTeam rows, so the flood stays under it).
      for (let i = 0; i < 18; i++) {
        const batch = Array.from({ length: 500 }, () =>
          attempt('Discord.exe', { sha256: randomBytes(32).toString('hex') }),
        );
        const res = await injectAttempts(server.app, a.key, batch);
        expect(res.statusCode, res.body).toBe(200);
        fresh += (res.json().data as { counted: number }).counted;
      }
    });
    expect(fresh).toBe(9_000);
    // The longest list of allowed sites the schema takes rides in the same config.
    const longest = Array.from(
      { length: NETWORK_MAX_DESTINATIONS },
      (_, i) => `s${i}.${'x'.repeat(58)}.ejemplo.org`,
    );
    expect(JSON.stringify(longest).length).toBeGreaterThan(NETWORK_MAX_LIST_BYTES - 600);
    const sites = await callAs(server.app, admin, '/api/updateAllowedSites', {
      contests_id: contestId,
      allowed_sites: longest,
    });
    expect(sites.status, JSON.stringify(sites.body)).toBe(200);
    const sizes = {
      a: await configBytes(a),
      b: await configBytes(b),
      c: await configBytes(c),
      d: await configBytes(d),
    };
    for (const size of Object.values(sizes)) expect(size).toBeLessThan(64 * 1024);
    // Only the sites were added to b's config: its fingerprints are as before.
    expect(sizes.b).toBe(sizesBefore.b + JSON.stringify(longest).length - 2);
    // Of 9,000 new fingerprints, one minute's claims were kept.
    expect((await screen('Discord.exe')).rows.length).toBeLessThanOrEqual(FINGERPRINT_CLAIMS_PER_MINUTE);
    const started = performance.now();
    await configOf(b);
    const configMs = performance.now() - started;
    console.log(
      `29 000 forged fingerprints: config bytes before ${JSON.stringify(sizesBefore)}, after ${JSON.stringify(sizes)}; ` +
        `config answered in ${configMs.toFixed(1)} ms; worst /api/health during the flood ${worst.toFixed(1)} ms`,
    );
  });

  it('records each claim once per memory span, and again after it (a fingerprint removed by an admin)', async () => {
    let now = Date.now() + 3_600_000; // past the flood's minutes, so the rate lets these through
    const learner = new FingerprintLearner(
      () => server.orm.em.fork(),
      (err) => {
        throw err;
      },
      () => now,
    );
    const discord = sha('discord-2');
    const claim = { teamId: b.id, contestId, process: 'discord.exe', sha256: discord };
    const forget = () =>
      server.orm.em.fork().execute('delete from process_fingerprints where sha256 = ?', [discord], 'run');

    await learner.learn([claim]);
    expect(await rowOf('Discord.exe', discord)).toMatchObject({
      teams: 1,
      first_team: { name: 'Bytes Bravos' },
    });
    await forget();
    // Remembered: no statement, so the deleted row stays deleted.
    await learner.learn([{ ...claim, process: 'DISCORD.exe' }]);
    expect(await rowOf('Discord.exe', discord)).toBeUndefined();
    now += FINGERPRINT_MEMORY_MS;
    await learner.learn([claim]);
    expect(await rowOf('Discord.exe', discord)).toMatchObject({ teams: 1 });
  });
});
