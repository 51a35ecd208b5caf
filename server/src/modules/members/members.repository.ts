import { LockMode, type Loaded } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import type { MemberInput, MemberRow } from '@concurso/shared';
import { Career } from '../careers/index.js';
import type { CatalogUsage } from '../catalogs/index.js';
import { Team } from '../teams/index.js';
import { Member, type IMember } from './member.entity.js';

/**
 * The only place that reads and writes `members` (docs/design.md section 3). Functions take the
 * EntityManager first so they run inside `transaction(em, work)` forks.
 */

function toMemberRow(member: Loaded<IMember, 'career'>): MemberRow {
  const career = member.career;
  return {
    id: member.id,
    code: member.code,
    name: member.name,
    semester: member.semester,
    teams_id: member.team.id,
    careers_id: career ? career.id : null,
    career: career ? { id: career.id, name: career.name } : null,
    type_participant: member.type_participant ?? null,
  };
}

/** A team's members with their career's name, in the order they were registered. */
export async function listMemberRows(em: EntityManager, teamId: number): Promise<MemberRow[]> {
  const members = await em.find(Member, { team: teamId }, { populate: ['career'], orderBy: { id: 'asc' } });
  return members.map(toMemberRow);
}

/**
 * The contest of a team, locking the team's row until the transaction ends (members join their team's
 * contest; the lock keeps two saves of one team in line). Null when the team does not exist.
 */
export async function lockTeamContest(em: EntityManager, teamId: number): Promise<number | null> {
  const team = await em.findOne(Team, teamId, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
  return team ? team.contest.id : null;
}

/** Which of `ids` are careers that exist. */
export async function existingCareerIds(em: EntityManager, ids: readonly number[]): Promise<Set<number>> {
  const careers = await em.find(Career, { id: { $in: [...ids] } }, { fields: ['id'] });
  return new Set(careers.map((career) => career.id));
}

/**
 * The members of `contestId` whose code is one of `codes` (codes compare ignoring case, by the
 * column's collation), each with its team's name. `latest`: a locking read, which sees rows committed
 * after this transaction's snapshot. For `createMember`, a team's move and the bulk import.
 */
export async function findTakenCodes(
  em: EntityManager,
  contestId: number,
  codes: readonly string[],
  latest = false,
): Promise<Array<{ code: string; team: string }>> {
  if (codes.length === 0) return [];
  const members = await em.find(
    Member,
    { contest: contestId, code: { $in: [...codes] } },
    { populate: ['team'], ...(latest && { lockMode: LockMode.PESSIMISTIC_READ }) },
  );
  return members.map((member) => ({ code: member.code, team: member.team.name }));
}

/** Rows per statement of {@link insertMembers} (500 × 8 values, far under the placeholder limit). */
const MEMBERS_PER_INSERT = 500;

/**
 * Inserts members of contest `contestId` (each names its team in `teams_id`) in multi-row statements
 * of at most `MEMBERS_PER_INSERT` (`em.insertMany`: no entity is kept, so a refused insert leaves
 * nothing half-saved in the EntityManager; the bulk import writes 1,000 members in two
 * statements). The unique (`contests_id`, `code`) index may refuse one with
 * `UniqueConstraintViolationException`.
 */
export async function insertMembers(
  em: EntityManager,
  contestId: number,
  members: readonly MemberInput[],
): Promise<void> {
  const now = new Date();
  for (let start = 0; start < members.length; start += MEMBERS_PER_INSERT) {
    await em.insertMany(
      Member,
      members.slice(start, start + MEMBERS_PER_INSERT).map((m) => ({
        code: m.code,
        name: m.name,
        semester: m.semester,
        team: m.teams_id,
        contest: contestId,
        career: m.careers_id,
        createdAt: now,
        updatedAt: now,
      })),
    );
  }
}

/** Deletes one member; false when the id does not exist. */
export async function deleteMember(em: EntityManager, id: number): Promise<boolean> {
  return (await em.nativeDelete(Member, { id })) > 0;
}

/** The codes of team `teamId`'s members (to check them against another contest before a move). */
export async function teamMemberCodes(em: EntityManager, teamId: number): Promise<string[]> {
  const members = await em.find(Member, { team: teamId }, { fields: ['code'] });
  return members.map((member) => member.code);
}

/**
 * Moves team `teamId`'s members to `contestId` with their team (a team moved to another
 * contest). The unique (`contests_id`, `code`) index refuses a code already there.
 */
export async function moveTeamMembers(em: EntityManager, teamId: number, contestId: number): Promise<void> {
  await em.nativeUpdate(Member, { team: teamId }, { contest: contestId });
}

/**
 * A member's career, which it keeps from being deleted (the 409 "in use": 'N integrante(s)'). Handed
 * to the careers catalogue by app.ts (`catalogUsages`).
 */
export const memberUsages: readonly CatalogUsage[] = [
  {
    catalog: 'careers',
    one: 'integrante',
    many: 'integrantes',
    count: (em, id) => em.count(Member, { career: id }),
  },
];
