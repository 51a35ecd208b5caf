import type { EntityManager } from '@mikro-orm/mysql';
import {
  SIMILAR_MAX_DISTANCE,
  SIMILAR_PROGRAMS_MAX,
  isTlsh,
  normaliseExecutableName,
  parseTlsh,
  parsedDistance,
  type SimilarProgram,
  type SimilarPrograms,
} from '@concurso/shared';

/*
 * «También coincide con» (agent/README.md, «Copias modificadas»): reads of `observed_processes` for the
 * similarity digest and build-id the agents reported with the programs that ran, so the admin sees,
 * before a block or a fingerprint's confirmation applies, which other programs of the contest the
 * agents would end with it. The distance and its threshold are `shared/src/similarity.ts`, the same the
 * agent applies.
 */

/** A file's similarity digest and ELF build-id, each null when unknown. */
export interface ObservedIdentity {
  tlsh: string | null;
  buildId: string | null;
}

/**
 * The digest and build-id the agents of contest `contestId` reported with the file whose SHA-256 is
 * `sha256` (the earliest row's that has each), nulls when none did. One query.
 */
export async function observedIdentity(
  em: EntityManager,
  contestId: number,
  sha256: string,
): Promise<ObservedIdentity> {
  const rows = await em
    .getConnection()
    .execute<Array<{ tlsh: string | null; build_id: string | null }>>(
      'select tlsh, build_id from observed_processes where contests_id = ? and sha256 = ? ' +
        'and (tlsh is not null or build_id is not null) order by id limit 50',
      [contestId, sha256],
    );
  return {
    tlsh: rows.find((row) => row.tlsh)?.tlsh ?? null,
    buildId: rows.find((row) => row.build_id)?.build_id ?? null,
  };
}

/**
 * The TLSH length bytes (as the digest writes them: two upper-case hex digits, nibbles swapped) a file
 * within `SIMILAR_MAX_DISTANCE` of a file of length byte `l` may have: the length term alone is 12 per
 * step past one step, so at most `max(1, ⌊threshold / 12⌋)` steps away. Lets the database skip files of
 * far sizes before any distance is computed.
 */
function nearLengthBytes(l: number): string[] {
  const steps = Math.max(1, Math.floor(SIMILAR_MAX_DISTANCE / 12));
  const out: string[] = [];
  for (let d = -steps; d <= steps; d++) {
    const value = (((l + d) % 256) + 256) % 256;
    const swapped = ((value & 0x0f) << 4) | (value >> 4);
    out.push(swapped.toString(16).toUpperCase().padStart(2, '0'));
  }
  return out;
}

/**
 * The other programs of contest `contestId` that the agents would end together with the file
 * `subject.sha256` blocked as `subject.name` (`GET /api/similarPrograms`): observed programs (grouped by
 * folded name and SHA-256) whose name is not `subject.name` as the agent compares names
 * (`normaliseExecutableName`) and whose file is the same (`'sha256'`), has the same build-id
 * (`'build_id'`) or a digest within `SIMILAR_MAX_DISTANCE` of `subject.tlsh` (`'tlsh'`). Closest first,
 * then by most machines and name; at most `SIMILAR_PROGRAMS_MAX`, with the `total`. One query; the
 * digests compared are only those of files of a near size (`nearLengthBytes`), so the work stays small
 * whatever the inventory holds (at most `OBSERVED_LIMITS.maxPerTeam` rows per team).
 */
export async function similarPrograms(
  em: EntityManager,
  contestId: number,
  subject: { sha256: string; name: string; tlsh: string | null; buildId: string | null },
): Promise<Omit<SimilarPrograms, 'tlsh' | 'build_id'>> {
  const tlsh = subject.tlsh !== null && isTlsh(subject.tlsh) ? parseTlsh(subject.tlsh) : null;
  const conditions = ['o.sha256 = ?'];
  const params: unknown[] = [contestId, subject.sha256];
  if (subject.buildId !== null) {
    conditions.push('o.build_id = ?');
    params.push(subject.buildId);
  }
  if (tlsh !== null) {
    const near = nearLengthBytes(tlsh.l);
    conditions.push(
      `(char_length(o.tlsh) = 70 and upper(substring(o.tlsh, 3, 2)) in (${near.map(() => '?').join(', ')}))`,
    );
    params.push(...near);
  }
  const rows = await em.getConnection().execute<
    Array<{
      id: number;
      name: string;
      name_key: string;
      sha256: string;
      tlsh: string | null;
      build_id: string | null;
      teams_id: number;
    }>
  >('select o.id as id, o.name as name, o.name_key as name_key, o.sha256 as sha256, o.tlsh as tlsh, ' + 'o.build_id as build_id, o.teams_id as teams_id from observed_processes o ' + `where o.contests_id = ? and o.sha256 <> '' and (${conditions.join(' or ')}) order by o.id`, params);
  const own = normaliseExecutableName(subject.name);
  const programs = new Map<string, SimilarProgram & { teams: Set<number> }>();
  for (const row of rows) {
    if (normaliseExecutableName(row.name) === own) continue;
    const key = `${row.name_key}\u0000${row.sha256}`;
    const found = programs.get(key);
    if (found) {
      found.teams.add(row.teams_id);
      found.machines = found.teams.size;
      continue;
    }
    const match = matchOf(row, subject.sha256, subject.buildId, tlsh);
    if (match === null) continue;
    programs.set(key, {
      name: row.name,
      sha256: row.sha256,
      machines: 1,
      teams: new Set([row.teams_id]),
      ...match,
    });
  }
  const sorted = [...programs.values()].sort(
    (a, b) => a.distance - b.distance || b.machines - a.machines || a.name.localeCompare(b.name),
  );
  return {
    threshold: SIMILAR_MAX_DISTANCE,
    programs: sorted.slice(0, SIMILAR_PROGRAMS_MAX).map(({ teams: _teams, ...program }) => program),
    total: sorted.length,
  };
}

/** Why observed file `row` is the subject's: same SHA-256, same build-id, or a near digest; null when none. */
function matchOf(
  row: { sha256: string; tlsh: string | null; build_id: string | null },
  sha256: string,
  buildId: string | null,
  tlsh: ReturnType<typeof parseTlsh> | null,
): Pick<SimilarProgram, 'by' | 'distance'> | null {
  if (row.sha256 === sha256) return { by: 'sha256', distance: 0 };
  if (buildId !== null && row.build_id === buildId) return { by: 'build_id', distance: 0 };
  if (tlsh === null || row.tlsh === null || !isTlsh(row.tlsh)) return null;
  const distance = parsedDistance(tlsh, parseTlsh(row.tlsh));
  return distance <= SIMILAR_MAX_DISTANCE ? { by: 'tlsh', distance } : null;
}
