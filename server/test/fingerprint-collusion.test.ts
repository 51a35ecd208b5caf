import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import {
  processFingerprintsSchema,
  type AgentAttempt,
  type AgentConfig,
  type ProcessFingerprints,
} from '@concurso/shared';
import { agentTeam, createContest, signInStaff, startTestServer, type TestServer } from '@concurso/testkit';
import { Process } from '../src/db/entities.js';
import { recordClaims } from '../src/modules/fingerprints/fingerprints.service.js';

/** A SHA-256 as the agent sends it (64 lower-case hex digits), different for each `seed`. */
const sha = (seed: string) => createHash('sha256').update(seed).digest('hex');

const attempt = (process: string, extra: Partial<AgentAttempt> = {}): AgentAttempt => ({
  event_id: randomUUID(),
  process,
  occurred_at: new Date().toISOString(),
  ...extra,
});

/**
 * Three colluding teams against the fingerprints (docs/design.md section 6a "Fingerprints"), through the
 * real server over HTTP: a kill by a fingerprint is never a claim, a removed fingerprint stays denied
 * under every name until an admin confirms it, and a claim that matches a permitted program's known
 * file is ignored and shown as suspect.
 */
describe('colluding keys cannot amplify fingerprints or bring them back', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let contestId: number;
  type Key = { id: number; name: string; key: string };
  let a: Key;
  let b: Key;
  let c: Key;
  let victim: Key;

  /** One call over HTTP as the holder of `token`: GET without `body`, POST with it. */
  const call = async (token: string, path: string, body?: object) => {
    const res = await fetch(`${server.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as { data?: unknown; message?: string } };
  };
  const report = async (team: Key, ...attempts: AgentAttempt[]) => {
    const res = await call(team.key, '/api/agent/attempts', { attempts });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const hashesOf = async (team: Key) => {
    const res = await call(team.key, '/api/agent/config');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.data as AgentConfig).fingerprints.map((f) => f.sha256);
  };
  const processId = async (name: string) => (await server.orm.em.fork().findOneOrFail(Process, { name })).id;
  const screen = async (process: string): Promise<ProcessFingerprints> => {
    const res = await call(admin, `/api/processFingerprints/${await processId(process)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return processFingerprintsSchema.parse(res.body.data);
  };
  const rowOf = async (process: string, sha256: string) =>
    (await screen(process)).rows.find((row) => row.sha256 === sha256);

  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'error' });
    ({ admin, judge } = await signInStaff(server, 'colusion'));
    contestId = (await createContest(server.orm)).id;
    const blocked = ['chrome.exe', 'Discord.exe', 'AnyDesk.exe'];
    a = await agentTeam(server, admin, { contestId, name: 'Alfa', blocked });
    b = await agentTeam(server, admin, { contestId, name: 'Beta', blocked });
    c = await agentTeam(server, admin, { contestId, name: 'Gamma', blocked });
    victim = await agentTeam(server, admin, { contestId, name: 'Víctima', blocked });
  });
  afterAll(async () => server?.close());

  it("never takes a kill by a fingerprint for a claim, nor a team's report of a fingerprint its policy carries", async () => {
    const h2 = sha('an-innocent-tool');
    for (const team of [a, b, c]) await report(team, attempt('chrome.exe', { sha256: h2, match: 'nombre' }));
    // Quorum: every machine ends the file, the victim's included.
    expect(await hashesOf(victim)).toEqual([h2]);
    expect(await rowOf('chrome.exe', h2)).toMatchObject({ teams: 3, applies_to_all: true });

    // The victim's agent ends its renamed tool by that fingerprint and says so: no claim.
    await report(victim, attempt('chrome.exe', { sha256: h2, executable: 'tool.exe', match: 'huella' }));
    expect(await rowOf('chrome.exe', h2)).toMatchObject({ teams: 3, last_team: { name: 'Gamma' } });
    // An agent older than `match` reports the same kill without it: its policy carries the
    // fingerprint already, so it is no claimant either.
    await report(victim, attempt('chrome.exe', { sha256: h2, executable: 'tool.exe' }));
    expect(await rowOf('chrome.exe', h2)).toMatchObject({ teams: 3, last_team: { name: 'Gamma' } });

    // A fingerprint kill teaches nothing even where no policy carries it yet.
    const fresh = sha('never-claimed');
    const claim = { teamId: victim.id, contestId, process: 'chrome.exe', sha256: fresh };
    expect(await recordClaims(server.orm.em.fork(), [{ ...claim, match: 'huella' }])).toBe(0);
    expect(await rowOf('chrome.exe', fresh)).toBeUndefined();
  });

  it('keeps a removed hash denied under every blocked name until an admin confirms it again', async () => {
    const h2 = sha('an-innocent-tool');
    const { id } = (await rowOf('chrome.exe', h2))!;
    const removed = await call(admin, `/api/deleteFingerprint/${id}`, {});
    expect(removed).toMatchObject({ status: 200, body: { message: 'Dato Eliminado.' } });
    for (const team of [a, b, c, victim]) expect(await hashesOf(team)).toEqual([]);

    // The same three claim the same hash under another blocked name: ignored, even for themselves.
    for (const team of [a, b, c]) await report(team, attempt('Discord.exe', { sha256: h2 }));
    for (const team of [a, b, c, victim]) expect(await hashesOf(team)).not.toContain(h2);
    expect(await rowOf('Discord.exe', h2)).toBeUndefined();
    const { denied } = await screen('Discord.exe');
    expect(denied).toEqual([
      expect.objectContaining({
        sha256: h2,
        process: { id: await processId('chrome.exe'), name: 'chrome.exe' },
      }),
    ]);

    const applied = async () => {
      let count = 0;
      for (const team of [a, b, c, victim]) if ((await hashesOf(team)).includes(h2)) count++;
      return count;
    };
    const afterRemoval = await applied();
    // The admin confirms it again: the denial goes and the hash applies to every machine.
    const [denial] = denied;
    const confirmed = await call(admin, `/api/confirmDeniedFingerprint/${denial!.id}`, {});
    expect(confirmed).toMatchObject({ status: 200, body: { message: 'Guardado' } });
    for (const team of [a, b, c, victim]) expect(await hashesOf(team)).toEqual([h2]);
    expect((await screen('chrome.exe')).denied).toEqual([]);
    expect(await rowOf('chrome.exe', h2)).toMatchObject({ confirmed: true, applies_to_all: true });
    expect((await call(admin, `/api/confirmDeniedFingerprint/${denial!.id}`, {})).status).toBe(404);
    console.log(
      `colluding keys: the colluders' hash claimed again under another name after its removal: in ${afterRemoval} ` +
        `of 4 configs, ${denied.length} denied row; after the admin's confirmation: in ${await applied()} of 4`,
    );
  });

  it("ignores a claim that matches a permitted program's known file and shows it as suspect, with its claimants", async () => {
    // «Programas permitidos»: the IDE. Its known file is what an agent saw run under its name.
    const em = server.orm.em.fork();
    const ide = em.create(Process, { name: 'code.exe' });
    await em.flush();
    expect(
      (await call(judge, '/api/updatePermittedProcesses', { contests_id: contestId, processes_id: [ide.id] }))
        .status,
    ).toBe(403);
    const blockedToo = await call(admin, '/api/updatePermittedProcesses', {
      contests_id: contestId,
      processes_id: [ide.id, await processId('chrome.exe')],
    });
    expect(blockedToo.status).toBe(422);
    const saved = await call(admin, '/api/updatePermittedProcesses', {
      contests_id: contestId,
      processes_id: [ide.id],
    });
    expect(saved).toMatchObject({ status: 200, body: { data: [{ processes: { name: 'code.exe' } }] } });
    expect((await call(admin, `/api/permittedProcesses/${contestId}`)).body.data).toEqual([
      expect.objectContaining({ processes_id: ide.id }),
    ]);
    // Nor the other way round: a permitted program is not blocked.
    const permittedToo = await call(admin, '/api/createBlockedProcessForContest', {
      contests_id: contestId,
      processes_id: [await processId('chrome.exe'), ide.id],
    });
    expect(permittedToo.status).toBe(422);
    const h = sha('the-ide');
    const observed = await call(victim.key, '/api/agent/observed', {
      observed: [
        {
          name: 'Code.exe',
          sha256: h,
          first_seen: new Date().toISOString(),
          last_seen: new Date().toISOString(),
          starts: 1,
        },
      ],
    });
    expect(observed.status, JSON.stringify(observed.body)).toBe(200);

    // The three claim chrome.exe = the IDE's hash, and Discord.exe = another program's.
    const h3 = sha('a-real-game');
    for (const team of [a, b, c]) {
      await report(team, attempt('chrome.exe', { sha256: h, match: 'nombre' }));
      await report(team, attempt('Discord.exe', { sha256: h3, match: 'nombre' }));
    }
    // The IDE's hash reaches no machine, the claimants' own included; the other one is at quorum.
    for (const team of [a, b, c, victim]) {
      const hashes = await hashesOf(team);
      expect(hashes).not.toContain(h);
      expect(hashes).toContain(h3);
    }
    const suspect = await rowOf('chrome.exe', h);
    expect(suspect).toMatchObject({ teams: 3, applies_to_all: false, suspect: 'code.exe' });
    expect(suspect!.claimants.map((team) => team.name)).toEqual(['Alfa', 'Beta', 'Gamma']);
    // The same three teams together on two fingerprints: marked on both.
    expect(suspect!.repeated_by).toEqual(['Alfa', 'Beta', 'Gamma']);
    expect(await rowOf('Discord.exe', h3)).toMatchObject({
      suspect: null,
      applies_to_all: true,
      repeated_by: ['Alfa', 'Beta', 'Gamma'],
    });
    console.log(
      `colluding keys: the IDE's hash claimed as chrome.exe by 3 keys: in 0 of 4 configs, suspect: ` +
        `${suspect!.suspect}, claimants: ${suspect!.claimants.map((team) => team.name).join(', ')}`,
    );
    // A fingerprint one team claimed alone is not marked.
    expect((await rowOf('chrome.exe', sha('an-innocent-tool')))?.repeated_by).toEqual([]);

    // Permitting nothing again: the claim is an ordinary one at quorum.
    await call(admin, '/api/updatePermittedProcesses', { contests_id: contestId, processes_id: [] });
    expect(await hashesOf(victim)).toContain(h);
  });
});
