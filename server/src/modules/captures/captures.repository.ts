import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import {
  CAPTURE_ATTEMPT_WINDOW_MS,
  CAPTURE_LIMITS,
  CAPTURE_REQUEST_TTL_MS,
  type CaptureMoment,
  type CaptureRow,
} from '@concurso/shared';
import { Attempt } from '../agent/index.js';
import { Team } from '../teams/index.js';
import { appendRowToChain } from '../chain/index.js';
import { Capture, type ICapture } from './capture.entity.js';
import { CaptureRequest } from './capture-request.entity.js';

/** A capture's row as the staff lists it; `attemptsId`: the row id of its attempt, when known. */
const captureRow = (capture: ICapture, attemptsId: number | null = null): CaptureRow => ({
  id: capture.id,
  teams_id: capture.team.id,
  event_id: capture.eventId || null,
  attempts_id: attemptsId,
  request_id: capture.requestId || null,
  hostname: capture.hostname,
  moment: capture.moment as CaptureMoment,
  taken_at: capture.takenAt.toISOString(),
  bytes: capture.bytes,
  width: capture.width,
  height: capture.height,
});

/** `captures` as rows, each with its attempt's id (one read of the team's attempts they name). */
async function withAttemptIds(em: EntityManager, captures: ICapture[]): Promise<CaptureRow[]> {
  const named = captures.filter((capture) => capture.eventId !== '');
  const ids = new Map<string, number>();
  if (named.length > 0) {
    const attempts = await em.find(
      Attempt,
      { team: named[0]!.team.id, event_id: [...new Set(named.map((capture) => capture.eventId))] },
      { fields: ['id', 'event_id'] },
    );
    for (const attempt of attempts) ids.set(attempt.event_id, attempt.id);
  }
  return captures.map((capture) => captureRow(capture, ids.get(capture.eventId) ?? null));
}

/** The event id of team `teamId`'s attempt `attemptsId`, or null when it is not the team's. */
export async function attemptEventId(
  em: EntityManager,
  teamId: number,
  attemptsId: number,
): Promise<string | null> {
  const attempt = await em.findOne(Attempt, { id: attemptsId, team: teamId }, { fields: ['event_id'] });
  return attempt?.event_id ?? null;
}

/**
 * Whether team `teamId` may upload a capture for `eventId` now: one of its attempts stored in contest
 * `contestId` at most `CAPTURE_ATTEMPT_WINDOW_MS` ago (by the server's clock, `received_at`).
 */
export async function recentAttempt(
  em: EntityManager,
  contestId: number,
  teamId: number,
  eventId: string,
  now = new Date(),
): Promise<boolean> {
  const since = new Date(now.getTime() - CAPTURE_ATTEMPT_WINDOW_MS);
  const found = await em.count(Attempt, {
    team: teamId,
    event_id: eventId,
    contest: contestId,
    receivedAt: { $gte: since },
  });
  return found > 0;
}

/**
 * The open «Ver pantalla» request `requestId` of team `teamId` in contest `contestId` (at most
 * `CAPTURE_REQUEST_TTL_MS` old), with the machine it asked for ('' every machine); null otherwise.
 */
export async function openRequest(
  em: EntityManager,
  contestId: number,
  teamId: number,
  requestId: string,
  now = new Date(),
): Promise<{ hostname: string } | null> {
  const request = await em.findOne(CaptureRequest, {
    requestId,
    team: teamId,
    contest: contestId,
    requestedAt: { $gte: new Date(now.getTime() - CAPTURE_REQUEST_TTL_MS) },
  });
  return request ? { hostname: request.hostname } : null;
}

/** Records a «Ver pantalla» request (also the log of who looked at which screen, and when). */
export async function insertRequest(
  em: EntityManager,
  request: { id: string; contestId: number; teamId: number; hostname: string; userId: number },
): Promise<void> {
  em.create(CaptureRequest, {
    requestId: request.id,
    contest: request.contestId,
    team: request.teamId,
    hostname: request.hostname,
    user: request.userId,
    requestedAt: new Date(),
  });
  await em.flush();
}

/** What one stored capture records. */
export interface NewCapture {
  contestId: number;
  teamId: number;
  eventId: string;
  requestId: string;
  hostname: string;
  moment: CaptureMoment;
  sha256: string;
  bytes: number;
  width: number;
  height: number;
  takenAt: Date;
}

/** What `insertCapture` did: the row (new or the one already stored), and the hashes it dropped. */
export interface InsertedCapture {
  row: CaptureRow;
  created: boolean;
  /** Hashes of the `pedida` captures dropped by the per-team bound (their files may go). */
  dropped: string[];
}

/**
 * Stores `capture` in its own transaction's `em`, under the team's row lock (two uploads of one team
 * never both pass the bound), and chains it (kind `captura`, its hash among the chained columns),
 * locking the contest's chain head only for the link, at the end (a team row before the head, as the
 * attempts' group commit locks them; README.md "The chain"). The same capture again (team, attempt or request, moment and machine) answers the stored
 * row. Per-team bound (README.md): with `CAPTURE_LIMITS.perTeam` images of the team kept in the
 * contest, the images of the oldest `pedida` ones are dropped to make room (their rows stay: they are
 * chained); null when none is left to drop (every image is an attempt's: they are kept, the new one
 * is refused).
 */
export async function insertCapture(em: EntityManager, capture: NewCapture): Promise<InsertedCapture | null> {
  await em.findOne(Team, capture.teamId, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] });
  const same = await em.findOne(Capture, {
    team: capture.teamId,
    eventId: capture.eventId,
    requestId: capture.requestId,
    moment: capture.moment,
    hostname: capture.hostname,
  });
  if (same) return { row: captureRow(same), created: false, dropped: [] };
  const held = await em.count(Capture, { contest: capture.contestId, team: capture.teamId, imageKept: true });
  const excess = held + 1 - CAPTURE_LIMITS.perTeam;
  const dropped: string[] = [];
  if (excess > 0) {
    const oldest = await em.find(
      Capture,
      { contest: capture.contestId, team: capture.teamId, moment: 'pedida', imageKept: true },
      { orderBy: { id: 'asc' }, limit: excess },
    );
    if (oldest.length < excess) return null;
    for (const row of oldest) {
      dropped.push(row.sha256);
      row.imageKept = false;
    }
  }
  const row = em.create(Capture, {
    contest: capture.contestId,
    team: capture.teamId,
    eventId: capture.eventId,
    requestId: capture.requestId,
    hostname: capture.hostname,
    moment: capture.moment,
    sha256: capture.sha256,
    bytes: capture.bytes,
    width: capture.width,
    height: capture.height,
    takenAt: capture.takenAt,
    receivedAt: new Date(),
  });
  await em.flush();
  // The head is locked only here, for its last four statements and the commit: `appendRowToChain`
  // reads the row back first, then locks the head, inserts the link and moves the head. Locked at the
  // start instead, every capture of the contest (and the attempts' group commit) queued on the head
  // for the whole transaction (bench/BENCHMARKS.md, captures through the route).
  await appendRowToChain(em, 'captura', row.id);
  return { row: captureRow(row), created: true, dropped };
}

/** Whether any capture still keeps the image `sha256` (else its file may be deleted). */
export async function hashInUse(em: EntityManager, sha256: string): Promise<boolean> {
  return (await em.count(Capture, { sha256, imageKept: true })) > 0;
}

/** The hash of capture `id`, or null when it is not stored or its image was dropped. */
export async function captureHash(em: EntityManager, id: number): Promise<string | null> {
  const capture = await em.findOne(Capture, { id, imageKept: true }, { fields: ['sha256'] });
  return capture?.sha256 ?? null;
}

/** Team `teamId`'s captures with their image in contest `contestId` (with `eventId`, that attempt's), oldest first. */
export async function teamCaptures(
  em: EntityManager,
  contestId: number,
  teamId: number,
  eventId?: string,
): Promise<CaptureRow[]> {
  const rows = await em.find(
    Capture,
    { contest: contestId, team: teamId, imageKept: true, ...(eventId === undefined ? {} : { eventId }) },
    { orderBy: { id: 'asc' } },
  );
  return withAttemptIds(em, rows);
}

/** The captures stored for «Ver pantalla» request `requestId`, oldest first. */
export async function requestCaptures(em: EntityManager, requestId: string): Promise<CaptureRow[]> {
  const rows = await em.find(Capture, { requestId, imageKept: true }, { orderBy: { id: 'asc' } });
  return rows.map((row) => captureRow(row));
}

/** One «Ver pantalla» as the contest log lists it: who asked (null once deleted), when, which team and machine. */
export interface ScreenViewRow {
  id: number;
  at: Date;
  team: { id: number; name: string; level: { id: number; level: string } };
  user: string | null;
  /** The machine asked for; '' for every machine of the team. */
  hostname: string;
}

/**
 * The «Ver pantalla» requests of contest `contestId` for /bitacora (the `pantalla` rows), of the teams
 * of `filter` (level, team), newest first, at most `limit`.
 */
export async function screenViewRows(
  em: EntityManager,
  contestId: number,
  filter: { levels_id?: number; teams_id?: number },
  limit: number,
): Promise<ScreenViewRow[]> {
  const requests = await em.find(
    CaptureRequest,
    {
      contest: contestId,
      ...(filter.teams_id !== undefined && { team: filter.teams_id }),
      ...(filter.levels_id !== undefined && { team: { level: filter.levels_id } }),
      ...(filter.teams_id !== undefined &&
        filter.levels_id !== undefined && { team: { id: filter.teams_id, level: filter.levels_id } }),
    },
    { populate: ['team', 'team.level', 'user'], orderBy: { requestedAt: 'desc', id: 'desc' }, limit },
  );
  return requests.map((request) => ({
    id: request.id,
    at: request.requestedAt,
    team: {
      id: request.team.id,
      name: request.team.name,
      level: { id: request.team.level.id, level: request.team.level.level },
    },
    user: request.user?.name ?? null,
    hostname: request.hostname,
  }));
}
