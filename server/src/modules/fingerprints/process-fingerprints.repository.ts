import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import {
  FINGERPRINT_CLAIMS_PER_MINUTE,
  FINGERPRINT_MAX_PER_PROCESS,
  FINGERPRINT_QUORUM_DEFAULT,
  SIMILAR_MAX_DISTANCE,
  isClaimMatch,
  isTlsh,
  parseTlsh,
  parsedDistance,
  type ParsedTlsh,
  normaliseExecutableName,
  type AgentAttemptMatch,
  type AgentFingerprint,
  type DeniedFingerprintRow,
  type ProcessFingerprintRow,
} from '@concurso/shared';
import { ContestPermittedProcess, ContestProcess } from '../contests/index.js';
import { ProcessFingerprintClaim } from './process-fingerprint-claim.entity.js';
import { ProcessFingerprintDenial } from './process-fingerprint-denial.entity.js';
import { ProcessFingerprint } from './process-fingerprint.entity.js';

/*
 * The only reads and writes of `process_fingerprints` and `process_fingerprint_claims`
 * (docs/design.md section 6a "Fingerprints"). A fingerprint an agent reports is a
 * claim of its team: it applies at once to that team's machines, and to every machine of the contest
 * once an admin confirms it or `quorum` different teams claimed it. Bounded whatever the agents send:
 * `FINGERPRINT_MAX_PER_PROCESS` per blocked process per contest, `FINGERPRINT_CLAIMS_PER_MINUTE` new
 * claims per team, and the config's fingerprints within a byte budget.
 */

/**
 * A fingerprint reported with a counted attempt: team `teamId` of contest `contestId` (the
 * active one) says an executable whose SHA-256 is `sha256` is its blocked process named `process`.
 * `match` is the attempt's (`'huella'`: the agent ended it by a fingerprint of its config, so it is
 * no claim at all; absent from older agents).
 */
export interface FingerprintClaim extends FileIdentity {
  teamId: number;
  contestId: number;
  process: string;
  sha256: string;
  match?: AgentAttemptMatch | undefined;
}

/**
 * What else than its SHA-256 an agent reported of a file (agent/README.md, «Copias modificadas»): its
 * similarity digest (`similarityDigestSchema`) and its ELF build-id (`buildIdSchema`), each absent or
 * null when unknown.
 */
export interface FileIdentity {
  tlsh?: string | null | undefined;
  buildId?: string | null | undefined;
}

/** One minute, the window of the per-team rate of new claims (ms). */
const CLAIM_RATE_WINDOW_MS = 60_000;

/**
 * Records `claims` in one transaction: for each team, at most `FINGERPRINT_CLAIMS_PER_MINUTE`
 * new claims in the last minute (counted from the stored claims, so every server process agrees); a
 * claim for a name that is not in its contest's blocked set teaches nothing; a claim the team made
 * already changes nothing. Each new claim creates its fingerprint when missing and keeps the
 * process's fingerprints within `FINGERPRINT_MAX_PER_PROCESS` (`keepWithinCap`). Answers how many
 * new claims were stored. Names compare as the catalogue does (the column's collation).
 *
 * Colluding keys cannot amplify (docs/design.md section 6a "Fingerprints"): an attempt the agent ended by
 * a fingerprint (`match: 'huella'`) is no claim, and neither is the claim of a team whose policy
 * already carries that fingerprint for that process (confirmed, or claimed by `quorum` teams): an
 * agent older than `match` reports its fingerprint kills too, and a forged fingerprint must not make
 * its victims claimants. A hash denied in the contest (an admin removed it: `deleteFingerprint`) is
 * ignored under every process name: not recorded, not counted to quorum, applied to no machine.
 */
export async function recordClaims(
  em: EntityManager,
  claims: readonly FingerprintClaim[],
  now = new Date(),
  quorum = FINGERPRINT_QUORUM_DEFAULT,
): Promise<number> {
  const byTeam = new Map<number, FingerprintClaim[]>();
  for (const claim of claims) {
    if (!isClaimMatch(claim.match)) continue; // 'huella' and 'similar' are no claims
    byTeam.set(claim.teamId, [...(byTeam.get(claim.teamId) ?? []), claim]);
  }
  if (byTeam.size === 0) return 0;
  return em.transactional(async (tx) => {
    let stored = 0;
    for (const [teamId, teamClaims] of byTeam) {
      const recent = await tx.count(ProcessFingerprintClaim, {
        team: teamId,
        createdAt: { $gt: new Date(now.getTime() - CLAIM_RATE_WINDOW_MS) },
      });
      let budget = FINGERPRINT_CLAIMS_PER_MINUTE - recent;
      for (const claim of teamClaims) {
        if (budget <= 0) break;
        const blocked = await tx.findOne(
          ContestProcess,
          { contest: claim.contestId, process: { name: claim.process } },
          { fields: ['process'] },
        );
        if (!blocked) continue;
        // A hash an admin removed stays out under every name until an admin confirms it again.
        if (await isDenied(tx, claim.contestId, claim.sha256)) continue;
        const processId = blocked.process.id;
        const known = await strengthOf(tx, claim.contestId, processId, claim.sha256);
        if (known && appliesToAll(known, quorum)) continue; // the team's policy carries it already
        const fingerprintId = await fingerprintIdOf(tx, claim.contestId, processId, claim.sha256, now);
        await fillIdentity(tx, fingerprintId, claim);
        if (!(await addClaims(tx, fingerprintId, [teamId], now))) continue;
        budget--;
        stored++;
        await keepWithinCap(tx, claim.contestId, processId);
      }
    }
    return stored;
  });
}

/**
 * Records, for "Bloquear" on `/procesosObservados`, that fingerprint `sha256` is process
 * `processId` in contest `contestId`, claimed by the teams whose agents saw it run (`teamIds`, maybe
 * none): not confirmed, so it applies to those teams' machines, and to all once an admin confirms it
 * in Procesos or `quorum` teams claimed it. No per-team rate (an admin's act); the cap holds. A hash
 * denied in the contest is not stored (it stays «Denegada» until confirmed in Procesos › Huellas).
 * `identity` is the digest and build-id the agents reported with that file (`observedIdentity`), kept
 * with the fingerprint when it has none yet. Answers whether anything new was stored.
 */
export async function recordBlockClaim(
  em: EntityManager,
  contestId: number,
  processId: number,
  sha256: string,
  teamIds: readonly number[],
  now = new Date(),
  identity: FileIdentity = {},
): Promise<boolean> {
  if (await isDenied(em, contestId, sha256)) return false; // only an admin's confirmation lifts it
  const before = await em.count(ProcessFingerprint, { contest: contestId, process: processId, sha256 });
  const id = await fingerprintIdOf(em, contestId, processId, sha256, now);
  await fillIdentity(em, id, identity);
  const added = await addClaims(em, id, teamIds, now);
  await keepWithinCap(em, contestId, processId);
  return before === 0 || added > 0;
}

/** Whether SHA-256 `sha256` is denied in contest `contestId` (an admin removed it and has not confirmed it since). */
async function isDenied(em: EntityManager, contestId: number, sha256: string): Promise<boolean> {
  return (await em.count(ProcessFingerprintDenial, { contest: contestId, sha256 })) > 0;
}

/** The hashes denied in contest `contestId` (at most one per fingerprint an admin removed). */
async function deniedHashes(em: EntityManager, contestId: number): Promise<Set<string>> {
  const rows = await em.find(ProcessFingerprintDenial, { contest: contestId }, { fields: ['sha256'] });
  return new Set(rows.map((row) => row.sha256));
}

/** Fingerprint (contest, process, hash) with whether it is confirmed and how many teams claimed it, or null. */
async function strengthOf(
  em: EntityManager,
  contestId: number,
  processId: number,
  sha256: string,
): Promise<{ confirmed: boolean; teams: number } | null> {
  const [row] = await em
    .createQueryBuilder(ProcessFingerprint, 'f')
    .select([
      'f.confirmed',
      raw(
        '(select count(*) from process_fingerprint_claims c where c.process_fingerprints_id = f.id) as teams',
      ),
    ])
    .where({ contest: contestId, process: processId, sha256 })
    .execute<Array<{ confirmed: number | boolean; teams: number | string }>>('all', false);
  return row ? { confirmed: Boolean(row.confirmed), teams: Number(row.teams) } : null;
}

/** The id of the fingerprint (contest, process, hash), inserted unconfirmed when missing. */
async function fingerprintIdOf(
  em: EntityManager,
  contestId: number,
  processId: number,
  sha256: string,
  now: Date,
): Promise<number> {
  await em
    .createQueryBuilder(ProcessFingerprint)
    .insert({ contest: contestId, process: processId, sha256, createdAt: now, updatedAt: now })
    .onConflict()
    .ignore()
    .execute('run');
  const row = await em.findOneOrFail(
    ProcessFingerprint,
    { contest: contestId, process: processId, sha256 },
    { fields: ['id'], disableIdentityMap: true },
  );
  return row.id;
}

/**
 * Keeps `identity`'s digest and build-id with fingerprint `id` where it has none yet: the first report
 * of a file's digest stays (a file's digest never changes; a later, different one is a forgery or
 * another agent's algorithm, and would let a key move what the fingerprint ends). Two statements at
 * most, none when `identity` is empty.
 */
async function fillIdentity(em: EntityManager, id: number, identity: FileIdentity): Promise<void> {
  if (identity.tlsh) await em.nativeUpdate(ProcessFingerprint, { id, tlsh: null }, { tlsh: identity.tlsh });
  if (identity.buildId)
    await em.nativeUpdate(ProcessFingerprint, { id, buildId: null }, { buildId: identity.buildId });
}

/** Adds the claims of `teamIds` to fingerprint `id` (a team's second claim changes nothing); answers how many were new. */
async function addClaims(
  em: EntityManager,
  id: number,
  teamIds: readonly number[],
  now: Date,
): Promise<number> {
  if (teamIds.length === 0) return 0;
  const result = await em
    .createQueryBuilder(ProcessFingerprintClaim)
    .insert(teamIds.map((team) => ({ fingerprint: id, team, createdAt: now })))
    .onConflict()
    .ignore()
    .execute('run');
  if (result.affectedRows > 0) await em.nativeUpdate(ProcessFingerprint, { id }, { updatedAt: now });
  return result.affectedRows;
}

/** A fingerprint with how many teams claimed it, for ranking. */
interface RankedFingerprint {
  id: number;
  confirmed: boolean;
  teams: number;
  updatedAt: Date;
}

/** Strongest first: confirmed, then most teams, then the most recently claimed, then the newest row. */
const strongestFirst = (a: RankedFingerprint, b: RankedFingerprint): number =>
  Number(b.confirmed) - Number(a.confirmed) ||
  b.teams - a.teams ||
  b.updatedAt.getTime() - a.updatedAt.getTime() ||
  b.id - a.id;

/**
 * Keeps at most `FINGERPRINT_MAX_PER_PROCESS` fingerprints of process `processId` in contest
 * `contestId`: past it the weakest unconfirmed ones go (fewest teams, then the longest
 * unclaimed), so one key's flood only displaces claims as weak as its own and never a confirmed one;
 * when every fingerprint is confirmed, the newest claim is the one that goes.
 */
async function keepWithinCap(em: EntityManager, contestId: number, processId: number): Promise<void> {
  const rows = await em
    .createQueryBuilder(ProcessFingerprint, 'f')
    .select([
      'f.id',
      'f.confirmed',
      'f.updated_at',
      raw(
        '(select count(*) from process_fingerprint_claims c where c.process_fingerprints_id = f.id) as teams',
      ),
    ])
    .where({ contest: contestId, process: processId })
    .execute<
      Array<{ id: number; confirmed: number | boolean; updated_at: Date | string; teams: number | string }>
    >('all', false);
  if (rows.length <= FINGERPRINT_MAX_PER_PROCESS) return;
  const ranked = rows
    .map((row) => ({
      id: row.id,
      confirmed: Boolean(row.confirmed),
      teams: Number(row.teams),
      updatedAt: new Date(row.updated_at),
    }))
    .sort(strongestFirst);
  const victims = ranked
    .slice(FINGERPRINT_MAX_PER_PROCESS)
    .filter((row) => !row.confirmed)
    .map((row) => row.id);
  // Every one kept confirmed and the newcomer among them: it is the weakest unconfirmed of all.
  if (victims.length === 0) {
    const newest = ranked.filter((row) => !row.confirmed).sort((a, b) => b.id - a.id)[0];
    if (newest) victims.push(newest.id);
  }
  if (victims.length > 0) await em.nativeDelete(ProcessFingerprint, { id: { $in: victims } });
}

/** A fingerprint of a contest's blocked process as the config and the inventory rank it. */
interface ApplicableFingerprint extends RankedFingerprint {
  process: string;
  sha256: string;
  tlsh: string | null;
  buildId: string | null;
}

/**
 * The fingerprints of the processes `processIds` in contest `contestId`, each with its process name,
 * whether it is confirmed and how many teams claimed it. At most `FINGERPRINT_MAX_PER_PROCESS` per
 * process, so bounded by the blocked set's size.
 */
async function contestFingerprintRows(
  em: EntityManager,
  contestId: number,
  processIds: readonly number[],
): Promise<ApplicableFingerprint[]> {
  if (processIds.length === 0) return [];
  const rows = await em
    .createQueryBuilder(ProcessFingerprint, 'f')
    .select([
      'f.id',
      'f.sha256',
      'f.tlsh',
      'f.build_id',
      'f.confirmed',
      'f.updated_at',
      raw('p.name as process'),
      raw(
        '(select count(*) from process_fingerprint_claims c where c.process_fingerprints_id = f.id) as teams',
      ),
    ])
    .join('f.process', 'p')
    .where({ contest: contestId, process: { $in: [...processIds] } })
    .execute<
      Array<{
        id: number;
        sha256: string;
        tlsh: string | null;
        build_id: string | null;
        confirmed: number | boolean;
        updated_at: Date | string;
        process: string;
        teams: number | string;
      }>
    >('all', false);
  return rows.map((row) => ({
    id: row.id,
    sha256: row.sha256,
    tlsh: row.tlsh ?? null,
    buildId: row.build_id ?? null,
    confirmed: Boolean(row.confirmed),
    updatedAt: new Date(row.updated_at),
    process: row.process,
    teams: Number(row.teams),
  }));
}

/**
 * The fingerprints of `contestFingerprintRows` that may apply to any machine (docs/design.md section 6a):
 * none whose hash is denied in the contest (a removal denies it under every process name) and none
 * that matches a permitted program's known file (`permittedKnownFiles`; confirmed or not: a program
 * the contest allows is never ended by a claim). Likewise a fingerprint keeps no digest within
 * `SIMILAR_MAX_DISTANCE` of a permitted program's known digest, nor a build-id of one
 * (`permittedLikeness`): its exact file still applies, never as a likeness of the allowed program.
 */
async function applicableRows(
  em: EntityManager,
  contestId: number,
  processIds: readonly number[],
): Promise<ApplicableFingerprint[]> {
  const rows = await contestFingerprintRows(em, contestId, processIds);
  if (rows.length === 0) return rows;
  const denied = await deniedHashes(em, contestId);
  const permitted = await permittedKnownFiles(em, contestId);
  const kept = rows.filter((row) => !denied.has(row.sha256) && !permitted.has(row.sha256));
  if (!kept.some((row) => row.tlsh !== null || row.buildId !== null)) return kept;
  const likeness = await permittedLikeness(em, contestId);
  if (likeness.digests.length === 0 && likeness.buildIds.size === 0) return kept;
  const near = (digest: string) => {
    if (!isTlsh(digest)) return false;
    const parsed = parseTlsh(digest);
    return likeness.digests.some((known) => parsedDistance(known, parsed) <= SIMILAR_MAX_DISTANCE);
  };
  return kept.map((row) => ({
    ...row,
    tlsh: row.tlsh !== null && near(row.tlsh) ? null : row.tlsh,
    buildId: row.buildId !== null && likeness.buildIds.has(row.buildId) ? null : row.buildId,
  }));
}

/**
 * Most distinct permitted digests `permittedLikeness` compares: the earliest reported (an IDE runs from
 * the contest's start; a flood of forged ones comes later), so the policy's cost stays bounded.
 */
const PERMITTED_DIGESTS_MAX = 1_000;

/**
 * The similarity digests (parsed, distinct, at most `PERMITTED_DIGESTS_MAX`) and build-ids of contest
 * `contestId`'s «Programas permitidos» (docs/design.md section 6a): those of their confirmed fingerprints
 * and those an agent of the contest reported with a file that ran under a permitted name
 * (`observed_processes`, its name with or without `.exe`, without case), as `permittedKnownFiles` reads
 * the hashes. A colluder can add one: the worst it does is take a fingerprint's likeness away (its
 * exact file still ends), never an allowed program ended by a forged digest. Two queries; none when the
 * contest permits nothing.
 */
async function permittedLikeness(
  em: EntityManager,
  contestId: number,
): Promise<{ digests: ParsedTlsh[]; buildIds: Set<string> }> {
  const out = { digests: [] as ParsedTlsh[], buildIds: new Set<string>() };
  const permitted = await em.find(ContestPermittedProcess, { contest: contestId }, { populate: ['process'] });
  if (permitted.length === 0) return out;
  const seen = new Set<string>();
  const add = (row: { tlsh: string | null; build_id: string | null }) => {
    const digest = row.tlsh?.toUpperCase();
    if (digest && isTlsh(digest) && !seen.has(digest) && seen.size < PERMITTED_DIGESTS_MAX) {
      seen.add(digest);
      out.digests.push(parseTlsh(digest));
    }
    if (row.build_id) out.buildIds.add(row.build_id);
  };
  const confirmed = await em.find(
    ProcessFingerprint,
    { contest: contestId, process: { $in: permitted.map((row) => row.process.id) }, confirmed: true },
    { fields: ['tlsh', 'buildId'] },
  );
  for (const row of confirmed) add({ tlsh: row.tlsh ?? null, build_id: row.buildId ?? null });
  const keys = new Set<string>();
  for (const { process } of permitted) {
    const base = normaliseExecutableName(process.name);
    if (base !== '') keys.add(base).add(`${base}.exe`);
  }
  if (keys.size === 0) return out;
  const observed = await em
    .getConnection()
    .execute<Array<{ tlsh: string | null; build_id: string | null }>>(
      `select tlsh, build_id from observed_processes where contests_id = ? ` +
        `and (tlsh is not null or build_id is not null) and name_key in (${[...keys].map(() => '?').join(', ')}) ` +
        `order by id limit ${PERMITTED_DIGESTS_MAX * 4}`,
      [contestId, ...keys],
    );
  for (const row of observed) add(row);
  return out;
}

/**
 * The known files of contest `contestId`'s «Programas permitidos» (the IDE, compilers, the browser;
 * docs/design.md section 6a): SHA-256 → the permitted process's name. A permitted program's known files are
 * its confirmed fingerprints in the contest and every SHA-256 an agent of the contest saw run under its
 * name (`observed_processes`, its name with or without `.exe`, without case). The observed hashes are
 * reported by the teams' own keys, so a colluder can add one: the worst it does is make a claim
 * suspect, so that fingerprint ends no renamed copy (the blocked name is still ended by name), never
 * an innocent program ended. Read as SQL: the observed module imports this one (no cycle). Empty, in
 * one query, when the contest permits nothing.
 */
async function permittedKnownFiles(em: EntityManager, contestId: number): Promise<Map<string, string>> {
  const known = new Map<string, string>();
  const permitted = await em.find(ContestPermittedProcess, { contest: contestId }, { populate: ['process'] });
  if (permitted.length === 0) return known;
  const confirmed = await em.find(
    ProcessFingerprint,
    { contest: contestId, process: { $in: permitted.map((row) => row.process.id) }, confirmed: true },
    { populate: ['process'] },
  );
  for (const row of confirmed) if (!known.has(row.sha256)) known.set(row.sha256, row.process.name);
  const byKey = new Map<string, string>();
  for (const { process } of permitted) {
    const base = normaliseExecutableName(process.name);
    if (base === '') continue;
    for (const key of [base, `${base}.exe`]) if (!byKey.has(key)) byKey.set(key, process.name);
  }
  if (byKey.size === 0) return known;
  const keys = [...byKey.keys()];
  const observed = await em
    .getConnection()
    .execute<Array<{ sha256: string; name_key: string }>>(
      `select distinct sha256, name_key from observed_processes where contests_id = ? and sha256 <> '' ` +
        `and name_key in (${keys.map(() => '?').join(', ')})`,
      [contestId, ...keys],
    );
  for (const row of observed) {
    const name = byKey.get(row.name_key);
    if (name !== undefined && !known.has(row.sha256)) known.set(row.sha256, name);
  }
  return known;
}

/** Which of the fingerprints `fingerprintIds` each team of `teamIds` claimed (one query). */
async function claimsByTeam(
  em: EntityManager,
  fingerprintIds: readonly number[],
  teamIds: readonly number[],
): Promise<Map<number, Set<number>>> {
  const byTeam = new Map<number, Set<number>>();
  if (fingerprintIds.length === 0 || teamIds.length === 0) return byTeam;
  const claims = await em.find(
    ProcessFingerprintClaim,
    { fingerprint: { $in: [...fingerprintIds] }, team: { $in: [...teamIds] } },
    { fields: ['fingerprint', 'team'] },
  );
  for (const claim of claims) {
    const own = byTeam.get(claim.team.id) ?? new Set<number>();
    own.add(claim.fingerprint.id);
    byTeam.set(claim.team.id, own);
  }
  return byTeam;
}

/** Whether a fingerprint applies to every machine of its contest: confirmed, or claimed by `quorum` teams. */
const appliesToAll = (row: Pick<RankedFingerprint, 'confirmed' | 'teams'>, quorum: number): boolean =>
  row.confirmed || row.teams >= quorum;

/**
 * Each hash once, the first (strongest) process that has it, with the file's similarity digest and
 * build-id when known (agent/README.md, «Copias modificadas»: the agent also ends a file close to it).
 */
function onePerHash(rows: readonly ApplicableFingerprint[]): AgentFingerprint[] {
  const seen = new Set<string>();
  const out: AgentFingerprint[] = [];
  for (const row of rows) {
    if (seen.has(row.sha256)) continue;
    seen.add(row.sha256);
    out.push({
      process: row.process,
      sha256: row.sha256,
      ...(row.tlsh ? { tlsh: row.tlsh } : {}),
      ...(row.buildId ? { build_id: row.buildId } : {}),
    });
  }
  return out;
}

/**
 * The fingerprints each team of `teamIds` of contest `contestId` must act on (`GET /api/agent/config`,
 * docs/design.md section 6a): of the blocked processes `processIds`, those that apply to every machine
 * (confirmed, or claimed by `quorum` teams) and the team's own claims, never a denied or suspect one
 * (`applicableRows`); each hash once. Strongest first (confirmed, at quorum, then own claims by teams and
 * recency), cut when the JSON would pass `budgetBytes` (UTF-8 bytes of the array), so the config stays small
 * whatever the agents report. Two queries whatever the number of teams (the push channel sends every
 * connected agent its policy after a change).
 */
export async function agentFingerprintsByTeam(
  em: EntityManager,
  options: {
    contestId: number;
    teamIds: readonly number[];
    processIds: readonly number[];
    quorum: number;
    budgetBytes: number;
  },
): Promise<Map<number, AgentFingerprint[]>> {
  const rows = await applicableRows(em, options.contestId, options.processIds);
  const claims = await claimsByTeam(
    em,
    rows.filter((row) => !appliesToAll(row, options.quorum)).map((row) => row.id),
    options.teamIds,
  );
  const forAll = rows.filter((row) => appliesToAll(row, options.quorum)).sort(strongestFirst);
  const out = new Map<number, AgentFingerprint[]>();
  for (const teamId of options.teamIds) {
    const own = claims.get(teamId);
    const mine = own ? rows.filter((row) => own.has(row.id)).sort(strongestFirst) : [];
    out.set(teamId, withinBudget(onePerHash([...forAll, ...mine]), options.budgetBytes));
  }
  return out;
}

/** The first fingerprints of `fingerprints` whose JSON array fits in `budgetBytes` (UTF-8). */
function withinBudget(fingerprints: readonly AgentFingerprint[], budgetBytes: number): AgentFingerprint[] {
  const out: AgentFingerprint[] = [];
  let bytes = 2; // the brackets
  for (const fingerprint of fingerprints) {
    const size = Buffer.byteLength(JSON.stringify(fingerprint), 'utf8') + 1; // and its comma
    if (bytes + size > budgetBytes) break;
    bytes += size;
    out.push(fingerprint);
  }
  return out;
}

/**
 * What the inventory of `/procesosObservados` knows of contest `contestId`'s fingerprints of its
 * blocked processes `processIds`, `[{process, sha256}]` each (never a denied or suspect one):
 * `forAll`, those that apply to every machine (confirmed, or claimed by `quorum` teams: "Bloqueado
 * como …"), and `claimed`, those that apply to their claimants' machines only so far (not confirmed,
 * fewer than `quorum` teams; a hash of `forAll` is left out): a program with such a hash running
 * under another name is a copy of the blocked program that nothing ends on the other machines yet
 * ("Copia de …").
 * Each hash once per list, strongest first. Three queries, bounded by the blocked set's size.
 */
export async function inventoryFingerprints(
  em: EntityManager,
  contestId: number,
  processIds: readonly number[],
  quorum: number,
): Promise<{ forAll: AgentFingerprint[]; claimed: AgentFingerprint[] }> {
  const rows = (await applicableRows(em, contestId, processIds)).sort(strongestFirst);
  const forAll = onePerHash(rows.filter((row) => appliesToAll(row, quorum)));
  const known = new Set(forAll.map((fingerprint) => fingerprint.sha256));
  const claimed = onePerHash(rows.filter((row) => !appliesToAll(row, quorum) && !known.has(row.sha256)));
  return { forAll, claimed };
}

/**
 * Every fingerprint of process `processId` in contest `contestId` for the admin's screen
 * (`GET /api/processFingerprints/{id}`): hash, confirmed, how many teams claimed it, every claiming
 * team with the time (ISO 8601; the first and last apart), whether it applies to every machine at
 * `quorum`, `suspect` (the permitted program whose known file it matches: it applies to no machine)
 * and `repeated_by` (its claimants that claimed another fingerprint of the contest together,
 * `repeatedClaimants`). Strongest first. At most `FINGERPRINT_MAX_PER_PROCESS` rows.
 */
export async function fingerprintRows(
  em: EntityManager,
  contestId: number,
  processId: number,
  quorum: number,
  onlyId?: number,
): Promise<ProcessFingerprintRow[]> {
  const fingerprints = await em.find(
    ProcessFingerprint,
    { contest: contestId, process: processId, ...(onlyId === undefined ? {} : { id: onlyId }) },
    { fields: ['id', 'sha256', 'confirmed', 'createdAt', 'updatedAt'] },
  );
  if (fingerprints.length === 0) return [];
  const claims = await em.find(
    ProcessFingerprintClaim,
    { fingerprint: { $in: fingerprints.map((f) => f.id) } },
    {
      fields: ['fingerprint', 'createdAt', 'team.name'],
      populate: ['team'],
      orderBy: { createdAt: 'asc', id: 'asc' },
    },
  );
  const claimsOf = new Map<number, Array<{ id: number; name: string; at: string }>>();
  for (const claim of claims) {
    const list = claimsOf.get(claim.fingerprint.id) ?? [];
    list.push({ id: claim.team.id, name: claim.team.name, at: claim.createdAt.toISOString() });
    claimsOf.set(claim.fingerprint.id, list);
  }
  const permitted = await permittedKnownFiles(em, contestId);
  const repeated = await repeatedClaimants(em, contestId, claimsOf);
  return fingerprints
    .map((f) => ({ f, claimants: claimsOf.get(f.id) ?? [] }))
    .sort((a, b) =>
      strongestFirst(
        { id: a.f.id, confirmed: a.f.confirmed, teams: a.claimants.length, updatedAt: a.f.updatedAt },
        { id: b.f.id, confirmed: b.f.confirmed, teams: b.claimants.length, updatedAt: b.f.updatedAt },
      ),
    )
    .map(({ f, claimants }) => ({
      id: f.id,
      sha256: f.sha256,
      confirmed: f.confirmed,
      teams: claimants.length,
      first_team: claimants[0] ?? null,
      last_team: claimants.at(-1) ?? null,
      created_at: f.createdAt.toISOString(),
      applies_to_all:
        !permitted.has(f.sha256) && appliesToAll({ confirmed: f.confirmed, teams: claimants.length }, quorum),
      claimants,
      suspect: permitted.get(f.sha256) ?? null,
      repeated_by: repeated.get(f.id) ?? [],
    }));
}

/**
 * Claims made by the same teams over and over (docs/design.md section 6a; Procesos › Huellas): for each
 * fingerprint of `claimsOf` (id → its claimants), the names of its claimants that, two or more of
 * them together, also claimed another fingerprint of contest `contestId` (any process). One query:
 * the contest's claims by those teams, at most `FINGERPRINT_MAX_PER_PROCESS` fingerprints per blocked
 * process each.
 */
async function repeatedClaimants(
  em: EntityManager,
  contestId: number,
  claimsOf: ReadonlyMap<number, ReadonlyArray<{ id: number; name: string }>>,
): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  const teamIds = new Set<number>();
  for (const claimants of claimsOf.values())
    if (claimants.length >= 2) for (const team of claimants) teamIds.add(team.id);
  if (teamIds.size === 0) return out;
  const claims = await em.find(
    ProcessFingerprintClaim,
    { team: { $in: [...teamIds] }, fingerprint: { contest: contestId } },
    { fields: ['fingerprint', 'team'] },
  );
  const teamsOf = new Map<number, Set<number>>();
  for (const claim of claims) {
    const set = teamsOf.get(claim.fingerprint.id) ?? new Set<number>();
    set.add(claim.team.id);
    teamsOf.set(claim.fingerprint.id, set);
  }
  for (const [id, claimants] of claimsOf) {
    if (claimants.length < 2) continue;
    const together = new Set<number>();
    for (const [other, teams] of teamsOf) {
      if (other === id) continue;
      const common = claimants.filter((team) => teams.has(team.id));
      if (common.length >= 2) for (const team of common) together.add(team.id);
    }
    if (together.size > 0)
      out.set(
        id,
        claimants.filter((team) => together.has(team.id)).map((team) => team.name),
      );
  }
  return out;
}

/**
 * The similarity digest and build-id known for the file whose SHA-256 is `sha256` among contest
 * `contestId`'s fingerprints (any process; the first one stored of each), `{tlsh: null, buildId: null}`
 * when none has them. One query.
 */
export async function fingerprintIdentity(
  em: EntityManager,
  contestId: number,
  sha256: string,
): Promise<{ tlsh: string | null; buildId: string | null }> {
  const rows = await em.find(
    ProcessFingerprint,
    { contest: contestId, sha256, $or: [{ tlsh: { $ne: null } }, { buildId: { $ne: null } }] },
    { fields: ['tlsh', 'buildId'], orderBy: { id: 'asc' } },
  );
  return {
    tlsh: rows.find((row) => row.tlsh)?.tlsh ?? null,
    buildId: rows.find((row) => row.buildId)?.buildId ?? null,
  };
}

/** Fingerprint `id`'s contest and process, or null when there is no such fingerprint. */
export async function fingerprintOwner(
  em: EntityManager,
  id: number,
): Promise<{ contestId: number; processId: number } | null> {
  const row = await em.findOne(ProcessFingerprint, id, { fields: ['contest', 'process'] });
  return row ? { contestId: row.contest.id, processId: row.process.id } : null;
}

/**
 * An admin confirms fingerprint `id`: it applies to every machine of its contest, and a
 * denial of its hash in that contest is lifted. False when missing.
 */
export async function confirmFingerprint(em: EntityManager, id: number, userId: number): Promise<boolean> {
  return em.transactional(async (tx) => {
    const row = await tx.findOne(ProcessFingerprint, id, { fields: ['contest', 'sha256'] });
    if (!row) return false;
    await tx.nativeUpdate(
      ProcessFingerprint,
      { id },
      { confirmed: true, confirmedBy: userId, confirmedAt: new Date() },
    );
    await tx.nativeDelete(ProcessFingerprintDenial, { contest: row.contest.id, sha256: row.sha256 });
    return true;
  });
}

/**
 * Removes fingerprint `id` and its claims, and denies its hash in its contest (docs/design.md
 * section 6a): every fingerprint of that hash in the contest goes too, whatever process it was claimed
 * as, and later claims of it under any name are ignored until an admin confirms it again
 * (`confirmDeniedFingerprint`, or `confirmFingerprint`). `userId` is the admin. False when missing.
 */
export async function deleteFingerprint(em: EntityManager, id: number, userId?: number): Promise<boolean> {
  return em.transactional(async (tx) => {
    const row = await tx.findOne(ProcessFingerprint, id, { fields: ['contest', 'process', 'sha256'] });
    if (!row) return false;
    await tx
      .createQueryBuilder(ProcessFingerprintDenial)
      .insert({
        contest: row.contest.id,
        sha256: row.sha256,
        process: row.process.id,
        deniedBy: userId ?? null,
        createdAt: new Date(),
      })
      .onConflict()
      .ignore()
      .execute('run');
    await tx.nativeDelete(ProcessFingerprint, { contest: row.contest.id, sha256: row.sha256 });
    return true;
  });
}

/**
 * The hashes denied in contest `contestId` for the admin's screen (Procesos › Huellas, «Denegada»):
 * each with the process it was removed from (null once deleted), who removed it and when (ISO 8601).
 * Newest first; one per fingerprint an admin removed.
 */
export async function deniedFingerprintRows(
  em: EntityManager,
  contestId: number,
): Promise<DeniedFingerprintRow[]> {
  const rows = await em.find(
    ProcessFingerprintDenial,
    { contest: contestId },
    { populate: ['process', 'deniedBy'], orderBy: { createdAt: 'desc', id: 'desc' } },
  );
  return rows.map((row) => ({
    id: row.id,
    sha256: row.sha256,
    process: row.process ? { id: row.process.id, name: row.process.name } : null,
    denied_by: row.deniedBy ? row.deniedBy.name : null,
    denied_at: row.createdAt.toISOString(),
  }));
}

/**
 * An admin confirms denied hash `id` again (docs/design.md section 6a): the denial is lifted and the hash
 * becomes a confirmed fingerprint of the process it was removed from (every machine of the contest
 * ends it); when that process was deleted, only the denial goes. Answers the contest and the process
 * (null), or null when there is no such denial.
 */
export async function confirmDeniedFingerprint(
  em: EntityManager,
  id: number,
  userId: number,
): Promise<{ contestId: number; processId: number | null } | null> {
  return em.transactional(async (tx) => {
    const denial = await tx.findOne(ProcessFingerprintDenial, id, {
      fields: ['contest', 'process', 'sha256'],
    });
    if (!denial) return null;
    await tx.nativeDelete(ProcessFingerprintDenial, { id });
    const contestId = denial.contest.id;
    const processId = denial.process?.id ?? null;
    if (processId === null) return { contestId, processId };
    const now = new Date();
    const fingerprintId = await fingerprintIdOf(tx, contestId, processId, denial.sha256, now);
    await tx.nativeUpdate(
      ProcessFingerprint,
      { id: fingerprintId },
      { confirmed: true, confirmedBy: userId, confirmedAt: now },
    );
    await keepWithinCap(tx, contestId, processId);
    return { contestId, processId };
  });
}
