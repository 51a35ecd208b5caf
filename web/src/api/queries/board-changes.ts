import type { BoardTeam } from '@concurso/shared';
import type { LiveBusListeners } from '../live-bus';

/*
 * Which pushes of the board change what the logs and the statistics show: a team's attempts
 * or status, a team removed, another contest activated. The agent's presence (its heartbeat) changes
 * none of them. Pure (no React, no socket of its own), so it is unit-tested with a fake socket.
 */

/** What a watcher last saw of each team: team id → `attempts:status` (and `:online:alert` `withAgent`). */
export type BoardSignatures = Map<number, string>;

const signature = (row: BoardTeam, withAgent: boolean) =>
  withAgent
    ? `${row.number_attempts}:${row.status_team.id}:${row.agent_online ? 1 : 0}:${row.agent_alert ?? ''}`
    : `${row.number_attempts}:${row.status_team.id}`;

/**
 * The signatures of `rows` (the board store's teams when a watcher starts: they need no refetch);
 * `withAgent`: the agent's presence and alert count too (/laboratorio and /bitacora).
 */
export function boardSignatures(rows: Iterable<BoardTeam>, withAgent = false): BoardSignatures {
  const known: BoardSignatures = new Map();
  for (const row of rows) known.set(row.id, signature(row, withAgent));
  return known;
}

/**
 * True when pushed board rows may have added to the logs or moved the statistics: a team's attempts or
 * status differ from what `known` holds, or the team is new to it. `known` is updated. A presence
 * change alone (the agent's heartbeat) answers false, unless `withAgent` (the lab board and
 * the log, which lists what happened to the agents).
 */
export function attemptsOrStatusChanged(
  known: BoardSignatures,
  rows: readonly BoardTeam[],
  withAgent = false,
): boolean {
  let changed = false;
  for (const row of rows) {
    const next = signature(row, withAgent);
    if (known.get(row.id) !== next) changed = true;
    known.set(row.id, next);
  }
  return changed;
}

/** What {@link boardChangeListeners} watches. */
export interface BoardChangeWatch {
  /** Only this team's rows and removal count (a team's 'Historial'); every team when undefined. */
  teamId?: number;
  /** The signatures already seen (`boardSignatures` of the store's teams), updated as rows arrive. */
  known: BoardSignatures;
  /** A change of an agent's presence or alert counts too; `known` must be built the same way. */
  withAgent?: boolean;
}

/**
 * The live bus's listeners (`api/live-bus.ts`) that call `request` whenever the board pushes a change
 * of attempts or status (a frame's rows), a removal (`team.removed`), another contest (`board.reset`),
 * or the socket comes back after a drop (pushes may have been missed meanwhile). Nothing else
 * requests: presence frames and the first connect (the caller's query has just fetched) do not.
 */
export function boardChangeListeners(
  request: () => void,
  { teamId, known, withAgent = false }: BoardChangeWatch,
): Partial<LiveBusListeners> {
  let dropped = false;
  return {
    teams: (rows) => {
      const watched = teamId === undefined ? rows : rows.filter((row) => row.id === teamId);
      if (attemptsOrStatusChanged(known, watched, withAgent)) request();
    },
    teamRemoved: (payload) => {
      known.delete(payload.id);
      if (teamId === undefined || payload.id === teamId) request();
    },
    boardReset: () => request(),
    disconnect: () => {
      dropped = true;
    },
    connect: () => {
      if (!dropped) return;
      dropped = false;
      request();
    },
  };
}
