import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import {
  SIMILAR_MAX_DISTANCE,
  isTlsh,
  parseTlsh,
  parsedDistance,
  type ParsedTlsh,
  normaliseExecutableName,
  type AgentAttemptMatch,
  type DeniedFingerprintRow,
} from '@concurso/shared';
import { ContestPermittedProcess, ContestProcess } from '../contests/index.js';
import { transaction } from '../../db/transaction.js';
import { ProcessFingerprintClaim } from './process-fingerprint-claim.entity.js';
import { ProcessFingerprintDenial } from './process-fingerprint-denial.entity.js';
import { ProcessFingerprint } from './process-fingerprint.entity.js';

/*
 * The only reads and writes of `process_fingerprints`, `process_fingerprint_claims` and
 * `process_fingerprint_denials` (docs/design.md section 6a "Fingerprints"), through the ORM; an admin's
 * act runs in the project's retrying transaction (`transaction`, db/transaction.ts). The rules (quorum,
 * the per-process cap, the per-team rate, the config's byte budget) are fingerprints.service.ts's.
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

/** Whether SHA-256 `sha256` is denied in contest `contestId` (an admin removed it and has not confirmed it since). */
export async function isDenied(em: EntityManager, contestId: number, sha256: string): Promise<boolean> {
  return (await em.count(ProcessFingerprintDenial, { contest: contestId, sha256 })) > 0;
}

/** The hashes denied in contest `contestId` (at most one per fingerprint an admin removed). */
async function deniedHashes(em: EntityManager, contestId: number): Promise<Set<string>> {
  const rows = await em.find(ProcessFingerprintDenial, { contest: contestId }, { fields: ['sha256'] });
  return new Set(rows.map((row) => row.sha256));
}

/** Team id → its claims stored since `since` (the per-team rate's window), for `teamIds`; one query. */
export async function recentClaimCounts(
  em: EntityManager,
  teamIds: readonly number[],
  since: Date,
): Promise<Map<number, number>> {
  if (teamIds.length === 0) return new Map();
  const rows = await em
    .createQueryBuilder(ProcessFingerprintClaim, 'c')
    .select([raw('c.teams_id as team'), raw('count(*) as claims')])
    .where({ team: { $in: [...teamIds] }, createdAt: { $gt: since } })
    .groupBy('c.team')
    .execute<Array<{ team: number; claims: number | string }>>('all', false);
  return new Map(rows.map((row) => [Number(row.team), Number(row.claims)]));
}

/**
 * The id of the process named `name` in contest `contestId`'s blocked set, or null. Names compare as
 * the catalogue does (the column's collation), so this is asked per distinct name rather than matched
 * in JavaScript.
 */
export async function blockedProcessId(
  em: EntityManager,
  contestId: number,
  name: string,
): Promise<number | null> {
  const blocked = await em.findOne(
    ContestProcess,
    { contest: contestId, process: { name } },
    { fields: ['process'] },
  );
  return blocked ? blocked.process.id : null;
}

/** `contestId:sha256` (lower case) of the hashes of `pairs` denied in their contest; one query. */
export async function deniedPairs(
  em: EntityManager,
  pairs: ReadonlyArray<{ contestId: number; sha256: string }>,
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await em.find(
    ProcessFingerprintDenial,
    {
      contest: { $in: [...new Set(pairs.map((pair) => pair.contestId))] },
      sha256: { $in: [...new Set(pairs.map((pair) => pair.sha256))] },
    },
    { fields: ['contest', 'sha256'] },
  );
  return new Set(rows.map((row) => `${row.contest.id}:${row.sha256.toLowerCase()}`));
}

/** A fingerprint's id, whether it is confirmed and how many teams claimed it. */
export interface FingerprintStrength {
  id: number;
  confirmed: boolean;
  teams: number;
}

/**
 * `contestId:processId:sha256` (lower case) → the strength of each fingerprint of the contests
 * `contestIds` with one of the hashes `sha256s`; one query.
 */
export async function fingerprintStrengths(
  em: EntityManager,
  contestIds: readonly number[],
  sha256s: readonly string[],
): Promise<Map<string, FingerprintStrength>> {
  if (contestIds.length === 0 || sha256s.length === 0) return new Map();
  const rows = await em
    .createQueryBuilder(ProcessFingerprint, 'f')
    .select([
      'f.id',
      raw('f.contests_id as contest_id'),
      raw('f.processes_id as process_id'),
      'f.sha256',
      'f.confirmed',
      raw(
        '(select count(*) from process_fingerprint_claims c where c.process_fingerprints_id = f.id) as teams',
      ),
    ])
    .where({ contest: { $in: [...contestIds] }, sha256: { $in: [...sha256s] } })
    .execute<
      Array<{
        id: number;
        contest_id: number;
        process_id: number;
        sha256: string;
        confirmed: number | boolean;
        teams: number | string;
      }>
    >('all', false);
  return new Map(
    rows.map((row) => [
      `${row.contest_id}:${row.process_id}:${row.sha256.toLowerCase()}`,
      { id: row.id, confirmed: Boolean(row.confirmed), teams: Number(row.teams) },
    ]),
  );
}

/** The id of the fingerprint (contest, process, hash), inserted unconfirmed when missing. */
export async function fingerprintIdOf(
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
export async function fillIdentity(em: EntityManager, id: number, identity: FileIdentity): Promise<void> {
  if (identity.tlsh) await em.nativeUpdate(ProcessFingerprint, { id, tlsh: null }, { tlsh: identity.tlsh });
  if (identity.buildId)
    await em.nativeUpdate(ProcessFingerprint, { id, buildId: null }, { buildId: identity.buildId });
}

/** Adds the claims of `teamIds` to fingerprint `id` (a team's second claim changes nothing); answers how many were new. */
export async function addClaims(
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
export interface RankedFingerprint {
  id: number;
  confirmed: boolean;
  teams: number;
  updatedAt: Date;
}

/** Every fingerprint of process `processId` in contest `contestId`, to rank for the cap; one query. */
export async function fingerprintRanks(
  em: EntityManager,
  contestId: number,
  processId: number,
): Promise<RankedFingerprint[]> {
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
  return rows.map((row) => ({
    id: row.id,
    confirmed: Boolean(row.confirmed),
    teams: Number(row.teams),
    updatedAt: new Date(row.updated_at),
  }));
}

/** Deletes fingerprints `ids` with their claims. */
export async function deleteFingerprints(em: EntityManager, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await em.nativeDelete(ProcessFingerprint, { id: { $in: [...ids] } });
}

/** A fingerprint of a contest's blocked process as the config and the inventory rank it. */
export interface ApplicableFingerprint extends RankedFingerprint {
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
export async function applicableRows(
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
export async function claimsByTeam(
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

/** What the admin's screen shows of a fingerprint, before the service ranks it (`fingerprintRows`). */
export interface FingerprintWithClaims {
  id: number;
  sha256: string;
  confirmed: boolean;
  createdAt: Date;
  updatedAt: Date;
  /** The teams that claimed it, oldest claim first (ISO 8601 times). */
  claimants: Array<{ id: number; name: string; at: string }>;
  /** The permitted program whose known file it is (`permittedKnownFiles`), else null. */
  suspect: string | null;
  /** `repeatedClaimants`: its claimants that claimed another fingerprint of the contest together. */
  repeatedBy: string[];
}

/**
 * Every fingerprint of process `processId` in contest `contestId` (only `onlyId` when given) with its
 * claimants, `suspect` and `repeatedBy`, in no particular order. Four queries at most, at most
 * `FINGERPRINT_MAX_PER_PROCESS` rows.
 */
export async function fingerprintsWithClaims(
  em: EntityManager,
  contestId: number,
  processId: number,
  onlyId?: number,
): Promise<FingerprintWithClaims[]> {
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
  return fingerprints.map((f) => ({
    id: f.id,
    sha256: f.sha256,
    confirmed: f.confirmed,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    claimants: claimsOf.get(f.id) ?? [],
    suspect: permitted.get(f.sha256) ?? null,
    repeatedBy: repeated.get(f.id) ?? [],
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
  return transaction(em, async (tx) => {
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
  return transaction(em, async (tx) => {
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
 * Lifts denial `id` (an admin confirms the hash again), answering its contest, the process it was
 * removed from (null once deleted) and the hash; null when there is no such denial. Run it in the
 * caller's transaction (fingerprints.service.ts `confirmDeniedFingerprint`).
 */
export async function liftDenial(
  em: EntityManager,
  id: number,
): Promise<{ contestId: number; processId: number | null; sha256: string } | null> {
  const denial = await em.findOne(ProcessFingerprintDenial, id, { fields: ['contest', 'process', 'sha256'] });
  if (!denial) return null;
  await em.nativeDelete(ProcessFingerprintDenial, { id });
  return { contestId: denial.contest.id, processId: denial.process?.id ?? null, sha256: denial.sha256 };
}

/** Marks fingerprint `id` confirmed by admin `userId` at `at`. */
export async function markConfirmed(em: EntityManager, id: number, userId: number, at: Date): Promise<void> {
  await em.nativeUpdate(
    ProcessFingerprint,
    { id },
    { confirmed: true, confirmedBy: userId, confirmedAt: at },
  );
}
