import type { EntityManager } from '@mikro-orm/mysql';
import {
  FINGERPRINT_CLAIMS_PER_MINUTE,
  FINGERPRINT_MAX_PER_PROCESS,
  FINGERPRINT_QUORUM_DEFAULT,
  isClaimMatch,
  type AgentFingerprint,
  type ProcessFingerprintRow,
} from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import {
  addClaims,
  applicableRows,
  blockedProcessId,
  claimsByTeam,
  deleteFingerprints,
  deniedPairs,
  fillIdentity,
  fingerprintIdOf,
  fingerprintRanks,
  fingerprintStrengths,
  fingerprintsWithClaims,
  isDenied,
  liftDenial,
  markConfirmed,
  recentClaimCounts,
  type ApplicableFingerprint,
  type FileIdentity,
  type FingerprintClaim,
  type FingerprintStrength,
  type RankedFingerprint,
} from './process-fingerprints.repository.js';

/*
 * The fingerprints' rules (docs/design.md section 6a "Fingerprints"), over the data of
 * process-fingerprints.repository.ts. A fingerprint an agent reports is a claim of its team: it applies
 * at once to that team's machines, and to every machine of the contest once an admin confirms it or
 * `quorum` different teams claimed it (`appliesToAll`). Bounded whatever the agents send:
 * `FINGERPRINT_MAX_PER_PROCESS` per blocked process per contest (`keepWithinCap`),
 * `FINGERPRINT_CLAIMS_PER_MINUTE` new claims per team (`recordClaims`), and the config's fingerprints
 * within a byte budget (`withinBudget`). Writes run in the project's retrying transaction
 * (`transaction`, db/transaction.ts).
 */

/** One minute, the window of the per-team rate of new claims (ms). */
const CLAIM_RATE_WINDOW_MS = 60_000;

/** Whether a fingerprint applies to every machine of its contest: confirmed, or claimed by `quorum` teams. */
const appliesToAll = (row: Pick<RankedFingerprint, 'confirmed' | 'teams'>, quorum: number): boolean =>
  row.confirmed || row.teams >= quorum;

/** Strongest first: confirmed, then most teams, then the most recently claimed, then the newest row. */
const strongestFirst = (a: RankedFingerprint, b: RankedFingerprint): number =>
  Number(b.confirmed) - Number(a.confirmed) ||
  b.teams - a.teams ||
  b.updatedAt.getTime() - a.updatedAt.getTime() ||
  b.id - a.id;

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
 *
 * What the call's claims need is read once for all of them: the teams' recent claims, the denials and
 * the fingerprints' strengths (one query each), the blocked process once per distinct name; the
 * strengths then follow the call's own writes in memory.
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
  const counted = [...byTeam.values()].flat();
  return transaction(em, async (tx) => {
    const recent = await recentClaimCounts(
      tx,
      [...byTeam.keys()],
      new Date(now.getTime() - CLAIM_RATE_WINDOW_MS),
    );
    const processOf = new Map<string, number | null>();
    for (const claim of counted) {
      const key = `${claim.contestId}:${claim.process}`;
      if (!processOf.has(key)) processOf.set(key, await blockedProcessId(tx, claim.contestId, claim.process));
    }
    const denied = await deniedPairs(tx, counted);
    const strengths = await fingerprintStrengths(
      tx,
      [...new Set(counted.map((claim) => claim.contestId))],
      [...new Set(counted.map((claim) => claim.sha256))],
    );
    let stored = 0;
    for (const [teamId, teamClaims] of byTeam) {
      let budget = FINGERPRINT_CLAIMS_PER_MINUTE - (recent.get(teamId) ?? 0);
      for (const claim of teamClaims) {
        if (budget <= 0) break;
        const processId = processOf.get(`${claim.contestId}:${claim.process}`);
        if (processId == null) continue;
        // A hash an admin removed stays out under every name until an admin confirms it again.
        if (denied.has(`${claim.contestId}:${claim.sha256.toLowerCase()}`)) continue;
        const strengthKey = `${claim.contestId}:${processId}:${claim.sha256.toLowerCase()}`;
        const known = strengths.get(strengthKey);
        if (known && appliesToAll(known, quorum)) continue; // the team's policy carries it already
        const fingerprintId = await fingerprintIdOf(tx, claim.contestId, processId, claim.sha256, now);
        await fillIdentity(tx, fingerprintId, claim);
        if (!(await addClaims(tx, fingerprintId, [teamId], now))) continue;
        strengths.set(strengthKey, {
          id: fingerprintId,
          confirmed: known?.id === fingerprintId && known.confirmed,
          teams: (known?.id === fingerprintId ? known.teams : 0) + 1,
        });
        budget--;
        stored++;
        forget(strengths, await keepWithinCap(tx, claim.contestId, processId));
      }
    }
    return stored;
  });
}

/** Drops from `strengths` the fingerprints the cap deleted (`victims`). */
function forget(strengths: Map<string, FingerprintStrength>, victims: readonly number[]): void {
  if (victims.length === 0) return;
  for (const [key, strength] of strengths) if (victims.includes(strength.id)) strengths.delete(key);
}

/**
 * Records, for "Bloquear" on `/procesosObservados`, that fingerprint `sha256` is process
 * `processId` in contest `contestId`, claimed by the teams whose agents saw it run (`teamIds`, maybe
 * none): not confirmed, so it applies to those teams' machines, and to all once an admin confirms it
 * in Procesos or `quorum` teams claimed it. No per-team rate (an admin's act); the cap holds. A hash
 * denied in the contest is not stored (it stays «Denegada» until confirmed in Procesos › Huellas).
 * `identity` is the digest and build-id the agents reported with that file (`observedIdentity`), kept
 * with the fingerprint when it has none yet. Answers whether anything new was stored. Runs in the
 * caller's transaction.
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
  const before = (await fingerprintStrengths(em, [contestId], [sha256])).has(
    `${contestId}:${processId}:${sha256.toLowerCase()}`,
  );
  const id = await fingerprintIdOf(em, contestId, processId, sha256, now);
  await fillIdentity(em, id, identity);
  const added = await addClaims(em, id, teamIds, now);
  await keepWithinCap(em, contestId, processId);
  return !before || added > 0;
}

/**
 * Keeps at most `FINGERPRINT_MAX_PER_PROCESS` fingerprints of process `processId` in contest
 * `contestId`: past it the weakest unconfirmed ones go (fewest teams, then the longest
 * unclaimed), so one key's flood only displaces claims as weak as its own and never a confirmed one;
 * when every fingerprint is confirmed, the newest claim is the one that goes. Answers the ids deleted.
 */
async function keepWithinCap(em: EntityManager, contestId: number, processId: number): Promise<number[]> {
  const rows = await fingerprintRanks(em, contestId, processId);
  if (rows.length <= FINGERPRINT_MAX_PER_PROCESS) return [];
  const ranked = rows.sort(strongestFirst);
  const victims = ranked
    .slice(FINGERPRINT_MAX_PER_PROCESS)
    .filter((row) => !row.confirmed)
    .map((row) => row.id);
  // Every one kept confirmed and the newcomer among them: it is the weakest unconfirmed of all.
  if (victims.length === 0) {
    const newest = ranked.filter((row) => !row.confirmed).sort((a, b) => b.id - a.id)[0];
    if (newest) victims.push(newest.id);
  }
  await deleteFingerprints(em, victims);
  return victims;
}

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
  const rows = await fingerprintsWithClaims(em, contestId, processId, onlyId);
  const rank = (f: (typeof rows)[number]): RankedFingerprint => ({
    id: f.id,
    confirmed: f.confirmed,
    teams: f.claimants.length,
    updatedAt: f.updatedAt,
  });
  return rows
    .sort((a, b) => strongestFirst(rank(a), rank(b)))
    .map((f) => ({
      id: f.id,
      sha256: f.sha256,
      confirmed: f.confirmed,
      teams: f.claimants.length,
      first_team: f.claimants[0] ?? null,
      last_team: f.claimants.at(-1) ?? null,
      created_at: f.createdAt.toISOString(),
      applies_to_all: f.suspect === null && appliesToAll(rank(f), quorum),
      claimants: f.claimants,
      suspect: f.suspect,
      repeated_by: f.repeatedBy,
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
  return transaction(em, async (tx) => {
    const denial = await liftDenial(tx, id);
    if (!denial) return null;
    const { contestId, processId } = denial;
    if (processId === null) return { contestId, processId };
    const now = new Date();
    const fingerprintId = await fingerprintIdOf(tx, contestId, processId, denial.sha256, now);
    await markConfirmed(tx, fingerprintId, userId, now);
    await keepWithinCap(tx, contestId, processId);
    return { contestId, processId };
  });
}
