import type { z } from 'zod';
import type { BoardTeam, socketAuthSchema } from './schemas/board.js';

/**
 * The push channel's contract (DESIGN.md section 6): event names, payloads and room names,
 * declared once and used by the Socket.IO server and every client (web, tests, bench). A board row
 * (`BoardTeam`) is the zod schema `boardTeamSchema` of schemas/board.ts, shared with the REST snapshot.
 */

/** Payload of `team.removed`: the team that left the board and the level room it was shown in. */
export interface TeamRemovedPayload {
  id: number;
  levels_id: number;
}

/** Event names. */
export const EVENTS = {
  teamUpdated: 'team.updated',
  teamsUpdated: 'teams.updated',
  teamRemoved: 'team.removed',
  boardReset: 'board.reset',
  catalogChanged: 'catalog.changed',
  sessionEnded: 'session.ended',
} as const;

/**
 * Why the server ended a session's sockets (sent in `session.ended` just before it disconnects them):
 * `logout` (the token was revoked), `password` (the password changed), `role` (the user's type
 * changed), `deleted` (the user was removed), `expired` (the token's `exp` passed).
 */
export type SessionEndReason = 'logout' | 'password' | 'role' | 'deleted' | 'expired';

export interface SessionEndedPayload {
  reason: SessionEndReason;
}

/** Server-to-client events, typed for `socket.io` and `socket.io-client`. */
export interface ServerToClientEvents {
  'team.updated': (team: BoardTeam) => void;
  /**
   * Several rows at once: the server gathers the changes of a short window (`BOARD_PUSH_WINDOW_MS`)
   * per level room and sends one frame, keeping only the newest row of each team. A window with one
   * change goes out as `team.updated`. Clients apply each row as a `team.updated`.
   */
  'teams.updated': (teams: BoardTeam[]) => void;
  'team.removed': (payload: TeamRemovedPayload) => void;
  /** A catalogue changed: refetch the snapshot. */
  'board.reset': () => void;
  /** An admin changed a catalogue: open screens of it refetch their list. */
  'catalog.changed': (payload: CatalogChangedPayload) => void;
  /**
   * The session of this socket is over (logout, password or role changed, user deleted, token
   * expired): the server disconnects it right after. The web goes to the login page with
   * `MESSAGES.sessionEnded` instead of reconnecting.
   */
  'session.ended': (payload: SessionEndedPayload) => void;
}

/** Client-to-server events: none yet; rooms are chosen in the handshake. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ClientToServerEvents {}

/**
 * Handshake `auth` of a staff socket: the JWT and, optionally, the levels to follow
 * (default: every level). The projector may follow one. Checked by `socketAuthSchema`.
 */
export type SocketAuth = z.infer<typeof socketAuthSchema>;

/** Room of the sockets following one level. */
export const levelRoom = (levelsId: number): string => `level:${levelsId}`;

/**
 * Room of the sockets following every level (the boards): they get one frame per push window with
 * the rows of all levels, instead of one frame per level room.
 */
export const ALL_LEVELS_ROOM = 'level:all';

/** Catalogues whose screens refresh on `catalog.changed`. */
export const CATALOGS = [
  'contests',
  'levels',
  'schools',
  'departaments',
  'careers',
  'coaches',
  'processes',
  'contest_processes',
  'teams',
  'members',
  'exercises',
  'users',
] as const;
export type CatalogName = (typeof CATALOGS)[number];

/** Payload of `catalog.changed`: which catalogue an admin changed, so open screens of it refetch. */
export interface CatalogChangedPayload {
  catalog: CatalogName;
}
