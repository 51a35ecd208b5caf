import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SIMILAR_MAX_DISTANCE,
  SIMILARITY_DIGEST_MAX_LENGTH,
  similarProgramsSchema,
  tlshDistance,
  type AgentConfig,
  type AgentObservedProcess,
} from '@concurso/shared';
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
import { Process } from '../src/db/entities.js';

/** A SHA-256 as the agent sends it, different for each `seed`. */
const sha = (seed: string) => createHash('sha256').update(seed).digest('hex');

// A TLSH digest as the agent sends it (70 upper-case hex digits: checksum, length byte, quartiles, body).
const BASE = '09F05A198CC69A5A4F0F9380A9EE93F2B927CF42089EA74276DC5F0BB2D34E68114448';
/** `digest` with body byte `index` (after the 3 header bytes) set to `value`. */
const withBodyByte = (digest: string, index: number, value: number) =>
  digest.slice(0, 6 + 2 * index) +
  value.toString(16).toUpperCase().padStart(2, '0') +
  digest.slice(8 + 2 * index);
const GCC = withBodyByte(BASE, 0, 0x00);
/** One bit pair off: distance 1, the same program (a toolchain's sibling driver). */
const GPP = withBodyByte(BASE, 0, 0x01);
/** Every bit pair of two body bytes 3 apart: distance 48, another program. */
const PYTHON = withBodyByte(withBodyByte(GCC, 1, 0xff ^ parseInt(GCC.slice(8, 10), 16)), 0, 0xff);
const BUILD_ID = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c';

/**
 * Similar files are the same program (agent/README.md, «Copias modificadas»): the server keeps the
 * similarity digest and ELF build-id the agents report with their attempts and with what ran, sends them
 * with the fingerprints under the claim rules (a team's own claim to its machines, a confirmed one to
 * all), never learns from a 'similar' kill, refuses oversized digests whole, and tells the admin which
 * other programs a block would also end («también coincide con»).
 */
describe('similarity digests and build-ids of fingerprints and observed programs', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  let contestId: number;
  type Key = { id: number; name: string; key: string };
  let a: Key;
  let b: Key;

  const attempt = (process: string, extra: Partial<AgentAttemptBody> = {}): AgentAttemptBody => ({
    event_id: randomUUID(),
    process,
    occurred_at: new Date().toISOString(),
    ...extra,
  });
  const configOf = async (team: Key): Promise<AgentConfig> => {
    const res = await callAs(server.app, team.key, '/api/agent/config');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as AgentConfig;
  };
  const fingerprintOf = async (team: Key, sha256: string) =>
    (await configOf(team)).fingerprints.find((f) => f.sha256 === sha256);
  const stored = async (sql: string, params: unknown[]) =>
    server.orm.em.fork().getConnection().execute<Array<Record<string, unknown>>>(sql, params);
  const observed = (name: string, sha256: string, extra: Partial<AgentObservedProcess> = {}) => ({
    ...observedEntry(name, sha256),
    ...extra,
  });
  const similar = async (token: string, query: string) =>
    callAs(server.app, token, `/api/similarPrograms?${query}`);

  beforeAll(async () => {
    server = await startTestServer({ logLevel: 'error' });
    ({ admin, judge } = await signInStaff(server, 'parecidos'));
    contestId = (await createContest(server.orm)).id;
    const blocked = ['chatgpt-red4', 'notas.exe'];
    a = await agentTeam(server, admin, { contestId, name: 'Los Parecidos', blocked });
    b = await agentTeam(server, admin, { contestId, name: 'Bits Vecinos', blocked });
  });
  afterAll(async () => server?.close());

  it("sends a claim's digest and build-id to the claimant's machines, and to every machine once confirmed", async () => {
    const file = sha('chatgpt-red4 v1');
    const res = await injectAttempts(server.app, a.key, [
      attempt('chatgpt-red4', { sha256: file, match: 'nombre', tlsh: GCC, build_id: BUILD_ID }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await fingerprintOf(a, file)).toEqual({
      process: 'chatgpt-red4',
      sha256: file,
      tlsh: GCC,
      build_id: BUILD_ID,
    });
    expect(await fingerprintOf(b, file)).toBeUndefined();

    const [row] = await stored('select id, tlsh, build_id from process_fingerprints where sha256 = ?', [
      file,
    ]);
    expect(row).toMatchObject({ tlsh: GCC, build_id: BUILD_ID });
    const confirmed = await callAs(server.app, admin, `/api/confirmFingerprint/${String(row!.id)}`, {});
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(await fingerprintOf(b, file)).toEqual({
      process: 'chatgpt-red4',
      sha256: file,
      tlsh: GCC,
      build_id: BUILD_ID,
    });
  });

  it("keeps a fingerprint's first digest: a later claim with another one does not move what it ends", async () => {
    const file = sha('chatgpt-red4 v2');
    await injectAttempts(server.app, a.key, [attempt('chatgpt-red4', { sha256: file, tlsh: GCC })]);
    await injectAttempts(server.app, b.key, [attempt('chatgpt-red4', { sha256: file, tlsh: PYTHON })]);
    expect((await fingerprintOf(b, file))?.tlsh).toBe(GCC);
  });

  it("learns nothing from a kill by similarity ('similar') nor by fingerprint ('huella')", async () => {
    const patched = sha('chatgpt-red4 one byte appended');
    const renamed = sha('chatgpt-red4 renamed');
    const res = await injectAttempts(server.app, b.key, [
      attempt('chatgpt-red4', { sha256: patched, match: 'similar', tlsh: GPP, executable: 'calc' }),
      attempt('chatgpt-red4', { sha256: renamed, match: 'huella', tlsh: GCC, executable: 'notes' }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.counted).toBe(2);
    const rows = await stored('select id from process_fingerprints where sha256 in (?, ?)', [
      patched,
      renamed,
    ]);
    expect(rows).toEqual([]);
    expect(await fingerprintOf(b, patched)).toBeUndefined();
  });

  it('refuses an oversized or foreign digest and a malformed build-id whole, storing nothing', async () => {
    const file = sha('oversized');
    const before = await stored('select count(*) as n from attempts where teams_id = ?', [a.id]);
    for (const extra of [
      { tlsh: 'A'.repeat(SIMILARITY_DIGEST_MAX_LENGTH + 1) },
      { tlsh: `${GCC}<img>` },
      { build_id: 'XYZ' },
    ]) {
      const res = await injectAttempts(server.app, a.key, [
        attempt('chatgpt-red4', { sha256: file, ...extra }),
      ]);
      expect(res.statusCode, res.body).toBe(422);
      const seen = await injectObserved(server.app, a.key, [observed('oversized', file, extra)]);
      expect(seen.statusCode, seen.body).toBe(422);
    }
    expect(await stored('select count(*) as n from attempts where teams_id = ?', [a.id])).toEqual(before);
    expect(await stored('select id from process_fingerprints where sha256 = ?', [file])).toEqual([]);
    expect(await stored('select id from observed_processes where sha256 = ?', [file])).toEqual([]);
  });

  it("stores what ran with its digest and build-id; an older agent's report keeps them", async () => {
    const file = sha('/usr/bin/gcc-14');
    const first = await injectObserved(server.app, a.key, [
      observed('gcc', file, { tlsh: GCC, build_id: BUILD_ID }),
    ]);
    expect(first.statusCode, first.body).toBe(200);
    const older = await injectObserved(server.app, a.key, [observed('gcc', file)]);
    expect(older.statusCode, older.body).toBe(200);
    const other = await injectObserved(server.app, a.key, [observed('gcc', file, { tlsh: PYTHON })]);
    expect(other.statusCode, other.body).toBe(200);
    const rows = await stored(
      'select tlsh, build_id, count from observed_processes where teams_id = ? and sha256 = ?',
      [a.id, file],
    );
    expect(rows).toEqual([{ tlsh: GCC, build_id: BUILD_ID, count: 3 }]);
  });

  it('says which other programs of the contest a block would also end («también coincide con»), to admins only', async () => {
    expect(tlshDistance(GCC, GPP)).toBeLessThanOrEqual(SIMILAR_MAX_DISTANCE);
    expect(tlshDistance(GCC, PYTHON)).toBeGreaterThan(SIMILAR_MAX_DISTANCE);
    const gcc = sha('/usr/bin/gcc-14'); // reported above with GCC and BUILD_ID
    const gpp = sha('/usr/bin/g++-14');
    const ld = sha('/usr/bin/x86_64-linux-gnu-ld.bfd');
    const python = sha('/usr/bin/python3.11');
    for (const [team, rows] of [
      [a, [observed('g++', gpp, { tlsh: GPP }), observed('python3', python, { tlsh: PYTHON })]],
      [
        b,
        [
          observed('g++', gpp, { tlsh: GPP }),
          observed('cc', gcc),
          observed('GCC.exe', sha('gcc on b'), { tlsh: GCC }),
        ],
      ],
      [b, [observed('ld.bfd', ld, { build_id: BUILD_ID })]],
    ] as const) {
      const res = await injectObserved(server.app, team.key, [...rows]);
      expect(res.statusCode, res.body).toBe(200);
    }

    const res = await similar(admin, `sha256=${gcc}&name=gcc`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = similarProgramsSchema.parse(res.body.data);
    expect(data).toMatchObject({ tlsh: GCC, build_id: BUILD_ID, threshold: SIMILAR_MAX_DISTANCE, total: 3 });
    // The same file under another name and the same build-id first (0), then the near digest; never
    // python3 (far), nor gcc under its own name in any case or with '.exe'.
    expect(data.programs).toEqual([
      { name: 'cc', sha256: gcc, machines: 1, by: 'sha256', distance: 0 },
      { name: 'ld.bfd', sha256: ld, machines: 1, by: 'build_id', distance: 0 },
      { name: 'g++', sha256: gpp, machines: 2, by: 'tlsh', distance: tlshDistance(GCC, GPP) },
    ]);

    // A file no agent reported a digest of: only the same file under other names.
    const unknown = await similar(admin, `sha256=${python}&name=python3`);
    expect(similarProgramsSchema.parse(unknown.body.data)).toMatchObject({
      tlsh: PYTHON,
      programs: [],
      total: 0,
    });

    expect((await similar(judge, `sha256=${gcc}&name=gcc`)).status).toBe(403);
    expect((await similar(admin, `sha256=XYZ&name=gcc`)).status).toBe(422);
    expect((await similar(admin, `sha256=${gcc}&name=gcc&contests_id=999999`)).status).toBe(404);
  });

  it("sends no digest or build-id of a fingerprint that is a permitted program's likeness, only its exact file", async () => {
    const em = server.orm.em.fork();
    const ide = em.create(Process, { name: 'code.exe' });
    await em.flush();
    const saved = await callAs(server.app, admin, '/api/updatePermittedProcesses', {
      contests_id: contestId,
      processes_id: [ide.id],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const ideBuild = 'aa'.repeat(20);
    const seen = await injectObserved(server.app, b.key, [
      observed('Code.exe', sha('the ide'), { tlsh: PYTHON, build_id: ideBuild }),
    ]);
    expect(seen.statusCode, seen.body).toBe(200);
    // A key claims its blocked program with the IDE's likeness (a digest one bit pair away, its build-id).
    const forged = sha('forged likeness');
    const nearIde = withBodyByte(PYTHON, 5, parseInt(PYTHON.slice(16, 18), 16) ^ 0x01);
    expect(tlshDistance(nearIde, PYTHON)).toBe(1);
    await injectAttempts(server.app, a.key, [
      attempt('notas.exe', { sha256: forged, tlsh: nearIde, build_id: ideBuild }),
    ]);
    expect(await fingerprintOf(a, forged)).toEqual({ process: 'notas.exe', sha256: forged });
    // The digest is stored (the admin's screen may show it), never sent while it is the IDE's likeness.
    expect(
      await stored('select tlsh, build_id from process_fingerprints where sha256 = ?', [forged]),
    ).toEqual([{ tlsh: nearIde, build_id: ideBuild }]);
  });

  it("copies an observed program's digest into the fingerprint its 'Bloquear' records", async () => {
    const file = sha('/opt/llm/runner');
    const seen = await injectObserved(server.app, b.key, [
      observed('runner', file, { tlsh: GPP, build_id: BUILD_ID }),
    ]);
    expect(seen.statusCode, seen.body).toBe(200);
    const blocked = await callAs(server.app, admin, '/api/blockObservedProcess', {
      name: 'runner',
      sha256: file,
    });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    expect(await fingerprintOf(b, file)).toEqual({
      process: 'runner',
      sha256: file,
      tlsh: GPP,
      build_id: BUILD_ID,
    });
    expect(await fingerprintOf(a, file)).toBeUndefined();
  });
});
