import type { z } from 'zod';
import type { BoardFrame } from './board-frame.js';
import type { AgentConfig } from './schemas/agent.js';
import type { AgentMessage, AgentMessageFailure } from './schemas/messages.js';
import type { CaptureRequest } from './schemas/captures.js';
import type { socketAuthSchema } from './schemas/board.js';

/**
 * The push channel's contract (docs/design.md section 6): event names, payloads and room names,
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
  boardFrame: 'board.frame',
  boardAck: 'board.ack',
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
  /**
   * Changed board rows (board-frame.ts): a change on an idle server goes out on the next turn of its
   * event loop; changes that come while the window after a push runs (twice the push's averaged
   * duration, up to `BOARD_PUSH_WINDOW_MAX_MS` while the server is saturated) gather, and each level
   * room gets one frame with the newest row of each team. Clients apply each row with the version rule
   * and acknowledge every `BOARD_ACK_EVERY`-th frame with `board.ack` and its `seq` (`boardAckPolicy`):
   * a screen with `BOARD_PUSH_CREDIT` frames unacknowledged gets no more until it acknowledges, and
   * then one catch-up frame with every row of its levels it missed.
   */
  'board.frame': (frame: BoardFrame) => void;
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

/** Client-to-server events; rooms are chosen in the handshake. */
export interface ClientToServerEvents {
  /** The screen applied the `board.frame` with this `seq` and every one before it: flow control. */
  'board.ack': (seq: number) => void;
}

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
  'messages',
] as const;
export type CatalogName = (typeof CATALOGS)[number];

/** Payload of `catalog.changed`: which catalogue an admin changed, so open screens of it refetch. */
export interface CatalogChangedPayload {
  catalog: CatalogName;
}

/**
 * The agents' namespace of the push channel (docs/design.md section 6a): agents connect to it
 * with their key (`agentSocketAuthSchema`) and join `team:<id>` and `contest:<id>`. Namespaces do not
 * share broadcasts: an agent socket never gets a board frame or a catalogue change, a staff socket
 * never gets an agent's policy.
 */
export const AGENT_NAMESPACE = '/agent';

/** Room of the agent sockets of one team. */
export const teamRoom = (teamId: number): string => `team:${teamId}`;
/** Room of the agent sockets of one contest's teams. */
export const contestRoom = (contestId: number): string => `contest:${contestId}`;

/** Events the server sends an agent socket. */
export interface AgentServerToClientEvents {
  /**
   * The team's policy (the same `AgentConfig` as `GET /api/agent/config`): sent on connection and
   * whenever it changes (active contest, blocked set, fingerprints), within a second of the change.
   */
  'agent.policy': (config: AgentConfig) => void;
  /** A message to show on the machine's screen, until its `expires_at`. */
  'agent.message': (message: AgentMessage) => void;
  /**
   * «Ver pantalla» (server/src/modules/captures/README.md): take a capture of the machine's screen now
   * and upload it with `POST /api/agent/capture` `{request_id, moment: 'pedida', …}` within
   * `CAPTURE_REQUEST_TTL_MS`; later, the server refuses it. Sent regardless of `capture_screens`.
   */
  'agent.capture.request': (request: CaptureRequest) => void;
}

/** Events an agent socket sends. */
export interface AgentClientToServerEvents {
  /** The agent applied the policy with this `policy_version`. */
  'agent.policy.applied': (version: string) => void;
  /** The message with this id is on the machine's screen (`entregado`). */
  'agent.message.delivered': (id: number) => void;
  /** The contestant closed the message with this id (`visto`). */
  'agent.message.seen': (id: number) => void;
  /**
   * The message could not be shown on this machine (`falló`): why, in one short Spanish phrase
   * («sin sesión gráfica»), and the machine's host name. The agent tries again while it has not
   * expired (`MESSAGE_SHOW_RETRIES`).
   */
  'agent.message.failed': (report: AgentMessageFailure) => void;
}
