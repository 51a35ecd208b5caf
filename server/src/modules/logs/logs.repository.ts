import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import {
  AGENT_EVENT_KINDS,
  CONTEST_LOG_LIMIT,
  MESSAGE_LOG_FAILURES,
  TEAM_STATUS_NAMES,
  type AgentEventKind,
  type AttemptLogRow,
  type ContestLogKind,
  type ContestLogQuery,
  type ContestLogRow,
  type MessageLogReceipts,
  type StatusChangeRow,
} from '@concurso/shared';
import { AgentEvent, Attempt } from '../agent/index.js';
import { ContestNetworkChange } from '../contests/index.js';
import { Message } from '../messages/index.js';
import { Team, TeamStatusChange } from '../teams/index.js';
import type { ITeam } from '../teams/index.js';

/**
 * The reads of the logs (docs/design.md section 4). The logs module owns no table: it reads the
 * agent's `attempts` and `agent_events`, the teams' `team_status_changes`, the messages'
 * receipts and the contests' `contest_network_changes` through their entities.
 */

/** Rows a log answers at most, newest first. */
const LOG_LIMIT = 1_000;

/** A team's attempts as its agent reported them, newest first. */
export async function listAttemptLog(em: EntityManager, teamId: number): Promise<AttemptLogRow[]> {
  const attempts = await em.find(
    Attempt,
    { team: teamId },
    {
      fields: ['process', 'executable', 'via', 'killed', 'occurredAt', 'receivedAt'],
      orderBy: { id: 'desc' },
      limit: LOG_LIMIT,
    },
  );
  return attempts.map((a) => ({
    id: a.id,
    process: a.process,
    executable: a.executable ?? null,
    via: a.via ?? null,
    killed: a.killed,
    occurred_at: a.occurredAt.toISOString(),
    received_at: a.receivedAt.toISOString(),
  }));
}

/** A stored agent event's kind (anything unknown reads as `sin_senal`, the one that needs a look). */
const agentEventKind = (kind: string): AgentEventKind =>
  (AGENT_EVENT_KINDS as readonly string[]).includes(kind) ? (kind as AgentEventKind) : 'sin_senal';

/** A seeded team status with its name (docs/spec.md section 4). */
const status = (id: number) => ({ id, status: TEAM_STATUS_NAMES[id] ?? String(id) });

/** A team's blocks and unblocks with the judge (null once their account is deleted) and the time, newest first. */
export async function listStatusLog(em: EntityManager, teamId: number): Promise<StatusChangeRow[]> {
  const changes = await em.find(
    TeamStatusChange,
    { team: teamId },
    { populate: ['user'], orderBy: { id: 'desc' }, limit: LOG_LIMIT },
  );
  return changes.map((c) => ({
    id: c.id,
    from: status(c.from),
    to: status(c.to),
    user: c.user ? { id: c.user.id, name: c.user.name } : null,
    automatic: c.automatic,
    at: c.at.toISOString(),
  }));
}

/** A contest log row before it is answered: its time as a number too, for the merge. */
type TimedRow = ContestLogRow & { time: number };

/** What every row of the log starts with: its id, its time (ms and ISO 8601), its team and level. */
function rowHead(
  id: number,
  at: Date,
  team: { id: number; name: string; level: { id: number; level: string } },
): Pick<TimedRow, 'id' | 'time' | 'at' | 'team' | 'level'> {
  return {
    id,
    time: at.getTime(),
    at: at.toISOString(),
    team: { id: team.id, name: team.name },
    level: { id: team.level.id, level: team.level.level },
  };
}

/** The order of the contest log: newest first; equal times by `KIND_ORDER`; then higher id first. */
function newestFirst(a: TimedRow, b: TimedRow): number {
  if (a.time !== b.time) return b.time - a.time;
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  return b.id - a.id;
}

/**
 * Equal times: a change of the allowed sites first, then a status change (an automatic block follows
 * its attempt), an agent's event, a message, an attempt.
 */
const KIND_ORDER: Record<ContestLogRow['kind'], number> = {
  red: 0,
  estatus: 1,
  agente: 2,
  mensaje: 3,
  intento: 4,
  pantalla: 5,
};

/**
 * One «Ver pantalla» of a team's screen, as the captures module records it (app.ts hands its reader
 * over: the two modules sit in one layer and import neither): who asked (null once deleted), when,
 * the team and the machine ('' for all of them).
 */
interface ScreenView {
  id: number;
  at: Date;
  team: { id: number; name: string; level: { id: number; level: string } };
  user: string | null;
  hostname: string;
}

/** Reads contest `contestId`'s «Ver pantalla» of the teams of `filter`, newest first, at most `limit`. */
export type ScreenViewReader = (
  em: EntityManager,
  contestId: number,
  filter: { levels_id?: number; teams_id?: number },
  limit: number,
) => Promise<ScreenView[]>;

/** The fields of a log row that belong to another kind: what each row starts from. */
const NONE = {
  process: null,
  executable: null,
  killed: null,
  occurred_at: null,
  from: null,
  to: null,
  user: null,
  automatic: false,
  agent_event: null,
  last_seen: null,
  silence_ms: null,
  hostname: null,
  message: null,
  message_target: null,
  message_receipts: null,
  network_version: null,
  allowed_sites: null,
} as const;

/**
 * The contest log of `/bitacora`: the attempts of contest `contestId` (`attempts.contests_id`),
 * the status changes of its teams (a change has no contest of its own: it is the team's), the events
 * of their agents and the judges' messages to them, and the changes of the contest's allowed
 * sites (of every team: only without a filter) and the judges' «Ver pantalla» (`screenViews`, when given),
 * filtered by `query` (level and team of the
 * team, the attempt's process: with a process, only attempts are left), merged newest first
 * (`newestFirst`), at most `CONTEST_LOG_LIMIT` rows; `truncated` when more matched. Up to five reads
 * with a joined team and level (and user), each limited to one row over the limit, so a long contest
 * costs at most five times the limit in rows.
 */
export async function listContestLog(
  em: EntityManager,
  contestId: number,
  query: ContestLogQuery,
  screenViews?: ScreenViewReader,
): Promise<{ rows: ContestLogRow[]; truncated: boolean }> {
  const team: FilterQuery<ITeam> = {
    contest: contestId,
    ...(query.levels_id !== undefined && { level: query.levels_id }),
    ...(query.teams_id !== undefined && { id: query.teams_id }),
  };
  const read = CONTEST_LOG_LIMIT + 1;
  // The «Tipo» filter: only the reads of that kind run; a process filter leaves only attempts.
  const wants = (kind: ContestLogKind) =>
    (query.kind === undefined || query.kind === kind) && (query.process === undefined || kind === 'intento');
  const attempts = wants('intento')
    ? await em.find(
        Attempt,
        { contest: contestId, team, ...(query.process !== undefined && { process: query.process }) },
        { populate: ['team', 'team.level'], orderBy: { receivedAt: 'desc', id: 'desc' }, limit: read },
      )
    : [];
  const changes = wants('estatus')
    ? await em.find(
        TeamStatusChange,
        { team },
        { populate: ['team', 'team.level', 'user'], orderBy: { at: 'desc', id: 'desc' }, limit: read },
      )
    : [];
  const messages = wants('mensaje') ? await messageLogRows(em, contestId, query, read) : [];
  const agentEvents = wants('agente')
    ? await em.find(
        AgentEvent,
        { contest: contestId, team },
        { populate: ['team', 'team.level'], orderBy: { at: 'desc', id: 'desc' }, limit: read },
      )
    : [];
  // The contest's allowed sites concern every team, so they are left out by any filter.
  const unfiltered = query.levels_id === undefined && query.teams_id === undefined;
  const networkChanges =
    unfiltered && wants('red')
      ? await em.find(
          ContestNetworkChange,
          { contest: contestId },
          { populate: ['user'], orderBy: { at: 'desc', id: 'desc' }, limit: read },
        )
      : [];
  const views =
    wants('pantalla') && screenViews
      ? await screenViews(em, contestId, { levels_id: query.levels_id, teams_id: query.teams_id }, read)
      : [];
  const rows: TimedRow[] = [
    ...attempts.map((a): TimedRow => ({
      ...NONE,
      kind: 'intento',
      ...rowHead(a.id, a.receivedAt, a.team),
      process: a.process,
      executable: a.executable ?? null,
      via: a.via ?? null,
      killed: a.killed,
      occurred_at: a.occurredAt.toISOString(),
    })),
    ...changes.map((c): TimedRow => ({
      ...NONE,
      kind: 'estatus',
      ...rowHead(c.id, c.at, c.team),
      from: status(c.from).status,
      to: status(c.to).status,
      user: c.user?.name ?? null,
      automatic: c.automatic,
    })),
    ...messages,
    ...agentEvents.map((e): TimedRow => ({
      ...NONE,
      kind: 'agente',
      ...rowHead(e.id, e.at, e.team),
      agent_event: agentEventKind(e.kind),
      last_seen: e.lastSeen?.toISOString() ?? null,
      silence_ms: e.silenceMs ?? null,
      hostname: e.hostname ?? null,
    })),
    ...networkChanges.map((c): TimedRow => ({
      ...NONE,
      kind: 'red',
      id: c.id,
      time: c.at.getTime(),
      at: c.at.toISOString(),
      team: null,
      level: null,
      user: c.user?.name ?? null,
      network_version: c.version,
      allowed_sites: c.allowedSites,
    })),
    ...views.map((v): TimedRow => ({
      ...NONE,
      kind: 'pantalla',
      ...rowHead(v.id, v.at, v.team),
      user: v.user,
      hostname: v.hostname || null,
    })),
  ].sort(newestFirst);
  return {
    rows: rows.slice(0, CONTEST_LOG_LIMIT).map(({ time: _time, ...row }) => row),
    truncated: rows.length > CONTEST_LOG_LIMIT,
  };
}

/**
 * The message rows of the contest log: ONE row per message of contest `contestId` (at most `limit`,
 * newest first), with the receipts of its target teams folded in (`MessageLogReceipts`: counts, and
 * the first `MESSAGE_LOG_FAILURES` teams by name that could not be shown it, with the machine and
 * why). With a level or team filter, only the messages that went to a team it keeps, and only those
 * teams' receipts are counted. A message to one team has that team (and its level); to a level, that
 * level. Four reads whatever the number of teams: the receipts are counted in the database.
 */
async function messageLogRows(
  em: EntityManager,
  contestId: number,
  query: ContestLogQuery,
  limit: number,
): Promise<TimedRow[]> {
  // The filters on a receipt's team, as SQL on `teams t` with their parameters.
  const teamSql: string[] = [];
  const teamParams: number[] = [];
  if (query.levels_id !== undefined) {
    teamSql.push('t.levels_id = ?');
    teamParams.push(query.levels_id);
  }
  if (query.teams_id !== undefined) {
    teamSql.push('t.id = ?');
    teamParams.push(query.teams_id);
  }
  const teamWhere = teamSql.map((part) => ` and ${part}`).join('');
  const ids = (
    await em.execute<Array<{ id: number }>>(
      'select m.id from messages m where m.contests_id = ?' +
        (teamSql.length > 0
          ? ' and exists (select 1 from message_receipts r join teams t on t.id = r.teams_id ' +
            `where r.messages_id = m.id${teamWhere})`
          : '') +
        ' order by m.created_at desc, m.id desc limit ?',
      [contestId, ...teamParams, limit],
    )
  ).map((row) => Number(row.id));
  if (ids.length === 0) return [];
  const inIds = ids.map(() => '?').join(', ');
  const [messages, counts, failures] = await Promise.all([
    em.find(Message, { id: { $in: ids } }, { populate: ['user'] }),
    em.execute<
      Array<{
        m: number;
        teams: number | string;
        delivered: number | string;
        seen: number | string;
        failed: number | string | null;
        team: number;
      }>
    >(
      'select r.messages_id as m, count(*) as teams, count(r.delivered_at) as delivered, ' +
        'count(r.seen_at) as seen, sum(r.delivered_at is null and r.failed_at is not null) as failed, ' +
        'min(r.teams_id) as team from message_receipts r join teams t on t.id = r.teams_id ' +
        `where r.messages_id in (${inIds})${teamWhere} group by r.messages_id`,
      [...ids, ...teamParams],
    ),
    em.execute<Array<{ m: number; team: string; host: string | null; reason: string }>>(
      'select m, team, host, reason from (select r.messages_id as m, t.name as team, ' +
        'r.failed_on as host, r.failure as reason, ' +
        'row_number() over (partition by r.messages_id order by t.name, t.id) as n ' +
        'from message_receipts r join teams t on t.id = r.teams_id ' +
        `where r.messages_id in (${inIds}) and r.delivered_at is null and r.failed_at is not null` +
        `${teamWhere}) f where n <= ? order by m, n`,
      [...ids, ...teamParams, MESSAGE_LOG_FAILURES],
    ),
  ]);
  const countOf = new Map(counts.map((row) => [Number(row.m), row]));
  const failuresOf = new Map<number, MessageLogReceipts['failures']>();
  for (const row of failures) {
    const list = failuresOf.get(Number(row.m)) ?? [];
    list.push({ team: row.team, hostname: row.host ?? null, reason: row.reason ?? '' });
    failuresOf.set(Number(row.m), list);
  }
  // The one team of a message to a team, the level of a message to a level (its lowest team's).
  const teamIds = [
    ...new Set(
      messages
        .filter((m) => m.target !== 'todos')
        .map((m) => countOf.get(m.id)?.team)
        .filter((id): id is number => id !== undefined && id !== null)
        .map(Number),
    ),
  ];
  const teams = new Map(
    (teamIds.length > 0 ? await em.find(Team, { id: { $in: teamIds } }, { populate: ['level'] }) : []).map(
      (t) => [t.id, t],
    ),
  );
  return messages.map((message): TimedRow => {
    const count = countOf.get(message.id);
    const target = count && message.target !== 'todos' ? teams.get(Number(count.team)) : undefined;
    return {
      ...NONE,
      kind: 'mensaje',
      id: message.id,
      time: message.createdAt.getTime(),
      at: message.createdAt.toISOString(),
      team: target && message.target === 'equipo' ? { id: target.id, name: target.name } : null,
      level: target ? { id: target.level.id, level: target.level.level } : null,
      user: message.user?.name ?? null,
      message: message.text,
      message_target: message.targetLabel,
      message_receipts: {
        teams: Number(count?.teams ?? 0),
        delivered: Number(count?.delivered ?? 0),
        seen: Number(count?.seen ?? 0),
        failed: Number(count?.failed ?? 0),
        failures: failuresOf.get(message.id) ?? [],
      },
    };
  });
}
