/**
 * Pure logic of the live board (docs/design.md section 6): a snapshot replaces everything, then events
 * upsert or delete single rows. Kept free of React, zustand and sockets so it is unit-tested as is.
 */
import {
  BOARD_LEVEL_KEYS,
  LEVELS,
  type BoardLevelKey,
  type BoardTeam,
  type TeamAttempts,
  type TeamRemovedPayload,
} from '@concurso/shared';

/** The current contest as the snapshot gives it. */
export type BoardContest = NonNullable<TeamAttempts['contest']>;

/** What the board holds: every team by id, plus the current contest. */
export interface BoardData {
  teams: Readonly<Record<number, BoardTeam>>;
  contest: BoardContest | null;
}

/**
 * One push event, as the store buffers it while a snapshot is being fetched: a row of a `board.frame`
 * (`updated`) or a `team.removed`.
 */
export type BoardEvent =
  { type: 'updated'; team: BoardTeam } | { type: 'removed'; payload: TeamRemovedPayload };

/** An empty board (before the first snapshot, after logout). */
export const EMPTY_BOARD: BoardData = { teams: {}, contest: null };

/**
 * Fills fields a row may lack so the board never shows `undefined`: the level comes from the list the
 * row was in, a missing version counts as 0 (any event is newer) and a missing agent flag as offline.
 */
function normalizeTeam(row: BoardTeam, levelsId: number): BoardTeam {
  return {
    ...row,
    levels_id: typeof row.levels_id === 'number' ? row.levels_id : levelsId,
    agent_online: row.agent_online === true,
    version: typeof row.version === 'number' ? row.version : 0,
  };
}

/**
 * Replaces the whole board with a `GET /api/teamAttempts` snapshot: teams absent from it are gone,
 * whatever version was held before (the snapshot is the truth at the time of the call).
 */
export function applySnapshot(_state: BoardData, snapshot: TeamAttempts): BoardData {
  const teams: Record<number, BoardTeam> = {};
  for (const key of BOARD_LEVEL_KEYS) {
    for (const row of snapshot[key] ?? []) {
      teams[row.id] = normalizeTeam(row, LEVELS[key]);
    }
  }
  return { teams, contest: snapshot.contest ?? null };
}

/**
 * The events of one `board.frame`'s rows (decoded once by the live bus, `api/live-bus.ts`):
 * each row an `updated` event, in the frame's order.
 */
export function boardFrameEvents(rows: readonly BoardTeam[]): BoardEvent[] {
  return rows.map((team) => ({ type: 'updated', team }));
}

/**
 * Applies events in arrival order into ONE new board: an `updated` row is inserted, or replaces the
 * held one unless its version is older (rows can arrive late or twice; an equal version is applied);
 * a changed `levels_id` moves the row to its new table by itself. A `removed` event deletes the row (a
 * no-op when it is not held). The teams map is copied once, at the first event that changes
 * something, not once per row (a catch-up frame can carry every team of the contest). Returns the same
 * object when every event is dropped, so subscribers do not re-render.
 */
export function applyBoardEvents(state: BoardData, events: readonly BoardEvent[]): BoardData {
  let teams: Record<number, BoardTeam> | null = null;
  for (const event of events) {
    const current = teams ?? state.teams;
    if (event.type === 'updated') {
      const held = current[event.team.id];
      if (held && event.team.version < held.version) continue;
      teams ??= { ...state.teams };
      teams[event.team.id] = normalizeTeam(event.team, event.team.levels_id);
    } else {
      if (!(event.payload.id in current)) continue;
      teams ??= { ...state.teams };
      delete teams[event.payload.id];
    }
  }
  return teams ? { ...state, teams } : state;
}

const byName = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

/** The rows of one board table: teams of that level, sorted by name (then id, for equal names). */
export function teamsOfLevel(teams: BoardData['teams'], level: BoardLevelKey): BoardTeam[] {
  const levelsId = LEVELS[level];
  return Object.values(teams)
    .filter((team) => team.levels_id === levelsId)
    .sort((a, b) => byName.compare(a.name, b.name) || a.id - b.id);
}
