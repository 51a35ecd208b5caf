import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import {
  STATS_TOP_PROCESSES,
  TEAM_STATUS,
  type ContestStats,
  type ProcessAttempts,
  TEAM_STATUS_NAMES,
  type ReportStatusChange,
  type ReportTeam,
} from '@concurso/shared';
import { Attempt } from '../agent/index.js';
import { Contest, contestRow } from '../contests/index.js';
import { Team, TeamStatusChange } from '../teams/index.js';
import { bucketMinutes, fillSeries, minuteStart } from './stats-series.js';

/*
 * The reads of a contest's statistics and report (/home's "Estadísticas", the contests' 'Reporte'). The
 * stats module owns no table: it reads `attempts`, `teams`, `members` and `team_status_changes` through the
 * EntityManager, and every count is an aggregate in the database (`count(*) ... group by`), never a load of
 * every attempt: a contest has tens of thousands.
 */

/** The attempts series of contest `contestId`: zero-filled, at most `STATS_MAX_POINTS` points. */
async function attemptsSeries(
  em: EntityManager,
  contestId: number,
): Promise<Pick<ContestStats, 'attempts' | 'attempts_per_minute' | 'bucket_minutes'>> {
  const [span] = await em
    .createQueryBuilder(Attempt, 'a')
    .select([raw('count(*) as total'), raw('min(a.received_at) as first'), raw('max(a.received_at) as last')])
    .where({ contest: contestId })
    .execute<Array<{ total: number | string; first: Date | null; last: Date | null }>>('all', false);
  const total = Number(span?.total ?? 0);
  if (!span?.first || !span.last || total === 0)
    return { attempts: 0, attempts_per_minute: [], bucket_minutes: 1 };
  const first = new Date(span.first);
  const last = new Date(span.last);
  const width = bucketMinutes(first, last);
  const start = minuteStart(first);
  // The point of each attempt: whole `width`-minute steps since the first attempt's minute. Seconds
  // between two DATETIMEs do not depend on the session's time zone.
  const point = 'floor(timestampdiff(second, ?, a.received_at) / ?)';
  const rows = await em
    .createQueryBuilder(Attempt, 'a')
    .select([raw(`${point} as point`, [new Date(start), width * 60]), raw('count(*) as attempts')])
    .where({ contest: contestId })
    .groupBy(raw(point, [new Date(start), width * 60]))
    .execute<Array<{ point: number | string; attempts: number | string }>>('all', false);
  const counts = new Map(rows.map((row) => [Number(row.point), Number(row.attempts)]));
  return {
    attempts: total,
    attempts_per_minute: fillSeries(start, last, width, counts),
    bucket_minutes: width,
  };
}

/** The `STATS_TOP_PROCESSES` most attempted processes of contest `contestId`, most first (ties by name). */
async function topProcesses(em: EntityManager, contestId: number): Promise<ProcessAttempts[]> {
  const rows = await em
    .createQueryBuilder(Attempt, 'a')
    .select(['a.process', raw('count(*) as attempts')])
    .where({ contest: contestId })
    .groupBy('a.process')
    .orderBy({ [raw('count(*)')]: 'desc', process: 'asc' })
    .limit(STATS_TOP_PROCESSES)
    .execute<Array<{ process: string; attempts: number | string }>>('all', false);
  return rows.map((row) => ({ process: row.process, attempts: Number(row.attempts) }));
}

/**
 * The statistics of contest `contestId` (`GET /api/contestStats/{contestId}`), or null when
 * the contest does not exist.
 */
export async function contestStats(em: EntityManager, contestId: number): Promise<ContestStats | null> {
  const contest = await em.findOne(Contest, contestId);
  if (!contest) return null;
  const series = await attemptsSeries(em, contestId);
  return {
    contest: contestRow(contest),
    ...series,
    top_processes: await topProcesses(em, contestId),
    teams: await em.count(Team, { contest: contestId }),
    teams_blocked: await em.count(Team, { contest: contestId, statusTeam: TEAM_STATUS.disqualified }),
  };
}

/** The teams of contest `contestId` for its report: by level, then name; members counted in the query. */
export async function reportTeams(em: EntityManager, contestId: number): Promise<ReportTeam[]> {
  const rows = await em
    .createQueryBuilder(Team, 't')
    .select([
      't.id',
      't.name',
      't.number_attempts',
      raw('l.level as level_name'),
      raw('c.name as coach_name'),
      raw('s.status as status_name'),
      raw('(select count(*) from members m where m.teams_id = t.id) as members'),
    ])
    .join('t.level', 'l')
    .join('t.coach', 'c')
    .join('t.statusTeam', 's')
    .where({ contest: contestId })
    .orderBy({ level: 'asc', name: 'asc', id: 'asc' })
    .execute<
      Array<{
        id: number;
        name: string;
        number_attempts: number;
        level_name: string;
        coach_name: string;
        status_name: string;
        members: number | string;
      }>
    >('all', false);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    level: row.level_name,
    coach: row.coach_name,
    members: Number(row.members),
    number_attempts: Number(row.number_attempts),
    status: row.status_name,
  }));
}

/**
 * Every block and unblock of a team of contest `contestId`, oldest first, with the judge's name (null
 * for an automatic block or a deleted account): who and when, the unblocks too, so a re-block follows
 * the unblock that allowed it.
 */
export async function reportStatusChanges(
  em: EntityManager,
  contestId: number,
): Promise<ReportStatusChange[]> {
  const rows = await em
    .createQueryBuilder(TeamStatusChange, 'x')
    .select([
      'x.at',
      'x.from',
      'x.to',
      'x.automatic',
      raw('t.name as team_name'),
      raw('l.level as level_name'),
      raw('u.name as user_name'),
    ])
    .join('x.team', 't')
    .join('t.level', 'l')
    .leftJoin('x.user', 'u')
    .where({ team: { contest: contestId } })
    .orderBy({ at: 'asc', id: 'asc' })
    .execute<
      Array<{
        at: Date | string;
        from: number;
        to: number;
        automatic: boolean | number;
        team_name: string;
        level_name: string;
        user_name: string | null;
      }>
    >('all', false);
  const status = (id: number) => ({ id, status: TEAM_STATUS_NAMES[id] ?? String(id) });
  return rows.map((row) => ({
    team: row.team_name,
    level: row.level_name,
    at: new Date(row.at).toISOString(),
    from: status(row.from),
    to: status(row.to),
    user: row.user_name ?? null,
    automatic: Boolean(row.automatic),
  }));
}
