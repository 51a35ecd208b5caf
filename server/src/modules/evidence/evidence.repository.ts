import type { EntityManager } from '@mikro-orm/mysql';
import { TEAM_STATUS_NAMES } from '@concurso/shared';
import { AgentEvent, AgentMachine, Attempt } from '../agent/index.js';
import { Capture } from '../captures/index.js';
import { Member } from '../members/index.js';
import { MessageReceipt } from '../messages/index.js';
import { Team, TeamStatusChange } from '../teams/index.js';
import { User } from '../users/index.js';

/**
 * The reads of a team's evidence. The evidence module owns no table: it reads the team, its members,
 * the agent's `attempts` and `agent_events`, the `captures`, the `team_status_changes` and the
 * messages' receipts through their entities, as the logs module does. Every list is bounded already
 * by what writes it (a team's attempts by the contest's bound and the agent's rate, its captures by
 * `CAPTURE_LIMITS.perTeam`); `EVIDENCE_ROWS` caps each list anyway, oldest first.
 */

/** Rows of each list read at most (oldest first); past it the PDF says the list was cut. */
const EVIDENCE_ROWS = 5_000;

/** One attempt as the PDF lists it; `captures` are its screen captures, oldest first. */
interface EvidenceAttempt {
  id: number;
  eventId: string;
  process: string;
  executable: string | null;
  via: string | null;
  killed: boolean;
  occurredAt: Date;
  receivedAt: Date;
}

/** One stored capture: `sha256` names its file under `DATA_DIR/captures`; `imageKept` false: dropped. */
export interface EvidenceCapture {
  id: number;
  eventId: string;
  requestId: string;
  hostname: string;
  moment: string;
  sha256: string;
  bytes: number;
  takenAt: Date;
  imageKept: boolean;
}

/** Everything the evidence of one team carries, read in one go (times are Dates, UTC). */
export interface EvidenceData {
  team: { id: number; name: string; level: string; coach: string; schools: string[] };
  contest: { id: number; calendar: string; date: string };
  members: Array<{ code: string; name: string; career: string | null; semester: number }>;
  attempts: EvidenceAttempt[];
  captures: EvidenceCapture[];
  statusChanges: Array<{ from: string; to: string; user: string | null; automatic: boolean; at: Date }>;
  agentEvents: Array<{
    kind: string;
    at: Date;
    lastSeen: Date | null;
    silenceMs: number | null;
    hostname: string | null;
  }>;
  messages: Array<{
    text: string;
    user: string | null;
    createdAt: Date;
    deliveredAt: Date | null;
    seenAt: Date | null;
    failedAt: Date | null;
    failure: string | null;
  }>;
  /** The team's machines as their agents last reported them (`agent_machines`). */
  machines: Array<{
    hostname: string;
    os: string;
    version: string;
    address: string | null;
    clockOffsetMs: number | null;
    onlineSince: Date;
    lastSeen: Date;
  }>;
  /** Lists that reached `EVIDENCE_ROWS` (more rows exist than the export carries). */
  cut: string[];
}

const statusName = (id: number) => TEAM_STATUS_NAMES[id] ?? String(id);

/** A `date` column as `AAAA-MM-DD` (MikroORM hands it as a string or a Date, by driver). */
const dayOf = (value: unknown): string =>
  value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);

/** Team `teamId`'s evidence, or null when there is no such team. */
export async function readEvidence(em: EntityManager, teamId: number): Promise<EvidenceData | null> {
  const team = await em.findOne(Team, teamId, { populate: ['level', 'coach', 'contest'] });
  if (!team) return null;
  const page = { limit: EVIDENCE_ROWS } as const;
  const [members, attempts, captures, changes, events, receipts, machines] = await Promise.all([
    em.find(
      Member,
      { team: teamId },
      { populate: ['career.departament.school'], orderBy: { name: 'asc' }, ...page },
    ),
    em.find(Attempt, { team: teamId }, { orderBy: { id: 'asc' }, ...page }),
    em.find(Capture, { team: teamId }, { orderBy: { id: 'asc' }, ...page }),
    em.find(TeamStatusChange, { team: teamId }, { populate: ['user'], orderBy: { id: 'asc' }, ...page }),
    em.find(AgentEvent, { team: teamId }, { orderBy: { id: 'asc' }, ...page }),
    em.find(
      MessageReceipt,
      { team: teamId },
      { populate: ['message.user'], orderBy: { id: 'asc' }, ...page },
    ),
    em.find(AgentMachine, { team: teamId }, { orderBy: { hostname: 'asc' }, ...page }),
  ]);
  const cut = (
    [
      ['intentos', attempts],
      ['capturas', captures],
      ['estatus', changes],
      ['agente', events],
      ['mensajes', receipts],
    ] as const
  )
    .filter(([, rows]) => rows.length >= EVIDENCE_ROWS)
    .map(([name]) => name);
  const schools = new Set<string>();
  for (const member of members) {
    const school = member.career?.departament.school.name;
    if (school) schools.add(school);
  }
  return {
    team: {
      id: team.id,
      name: team.name,
      level: team.level.level,
      coach: team.coach.name,
      schools: [...schools].sort(),
    },
    contest: { id: team.contest.id, calendar: team.contest.calendar, date: dayOf(team.contest.date) },
    members: members.map((m) => ({
      code: m.code,
      name: m.name,
      career: m.career?.name ?? null,
      semester: m.semester,
    })),
    attempts: attempts.map((a) => ({
      id: a.id,
      eventId: a.event_id,
      process: a.process,
      executable: a.executable ?? null,
      via: a.via ?? null,
      killed: a.killed,
      occurredAt: a.occurredAt,
      receivedAt: a.receivedAt,
    })),
    captures: captures.map((c) => ({
      id: c.id,
      eventId: c.eventId,
      requestId: c.requestId,
      hostname: c.hostname,
      moment: c.moment,
      sha256: c.sha256,
      bytes: c.bytes,
      takenAt: c.takenAt,
      imageKept: c.imageKept,
    })),
    statusChanges: changes.map((c) => ({
      from: statusName(c.from),
      to: statusName(c.to),
      user: c.user?.name ?? null,
      automatic: c.automatic,
      at: c.at,
    })),
    agentEvents: events.map((e) => ({
      kind: e.kind,
      at: e.at,
      lastSeen: e.lastSeen ?? null,
      silenceMs: e.silenceMs ?? null,
      hostname: e.hostname ?? null,
    })),
    messages: receipts.map((r) => ({
      text: r.message.text,
      user: r.message.user?.name ?? null,
      createdAt: r.message.createdAt,
      deliveredAt: r.deliveredAt ?? null,
      seenAt: r.seenAt ?? null,
      failedAt: r.failedAt ?? null,
      failure: r.failure ?? null,
    })),
    machines: machines.map((m) => ({
      hostname: m.hostname,
      os: m.os,
      version: m.version,
      address: m.address ?? null,
      clockOffsetMs: m.clockOffsetMs ?? null,
      onlineSince: m.onlineSince,
      lastSeen: m.lastSeen,
    })),
    cut,
  };
}

/** How the PDF names who exported: the account's name and user name (`#<id>` once it is gone). */
export async function staffName(em: EntityManager, userId: number): Promise<string> {
  const user = await em.findOne(User, userId, { fields: ['name', 'username'] });
  return user ? `${user.name} (${user.username})` : `#${userId}`;
}
