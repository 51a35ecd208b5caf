/**
 * Pure logic of the projector view (/proyector): which levels it shows and each level's teams in the
 * hall's order, most attempts first. Kept free of React so it is unit-tested as is.
 */
import {
  BOARD_LEVEL_KEYS,
  BOARD_LEVEL_TITLES,
  LEVELS,
  MESSAGES,
  type BoardLevelKey,
  type BoardTeam,
  type ContestRow,
} from '@concurso/shared';

/**
 * The projector's heading: 'Concurso 2026B' for the active contest, `MESSAGES.noActiveContestTitle`
 * ('Sin concurso activo') when none is (issue 13: the body then shows `MESSAGES.noActiveContest`
 * instead of empty columns).
 */
export function projectorTitle(contest: Pick<ContestRow, 'calendar'> | null): string {
  return contest ? `Concurso ${contest.calendar}` : MESSAGES.noActiveContestTitle;
}

/** One column of the projector: a level's title, its teams sorted, and the largest count (bar scale). */
export interface ProjectorColumn {
  level: BoardLevelKey;
  title: string;
  teams: BoardTeam[];
  /** The most attempts of any team of the level, at least 1 (bars are `attempts / maxAttempts`). */
  maxAttempts: number;
}

/**
 * The levels to show for `?nivel=<id>`: that level alone when it is one of the board's levels
 * (by id 1–3), otherwise all three side by side.
 */
export function projectorLevels(nivel: string | null): BoardLevelKey[] {
  const id = Number(nivel);
  const only = BOARD_LEVEL_KEYS.find((key) => LEVELS[key] === id);
  return only ? [only] : [...BOARD_LEVEL_KEYS];
}

// One collator for every comparison: `localeCompare(…, 'es')` builds one per call, far slower.
const collator = new Intl.Collator('es');

/** Most attempts first; ties by name (Spanish collation), then id, so the order never flickers. */
export function compareForProjector(a: BoardTeam, b: BoardTeam): number {
  return b.number_attempts - a.number_attempts || collator.compare(a.name, b.name) || a.id - b.id;
}

/** Builds the columns for `levels` from the board's teams (O(n log n) per call). */
export function projectorColumns(
  teams: Readonly<Record<number, BoardTeam>>,
  levels: readonly BoardLevelKey[],
): ProjectorColumn[] {
  const byLevel = new Map<number, BoardTeam[]>(levels.map((key) => [LEVELS[key], []]));
  for (const team of Object.values(teams)) byLevel.get(team.levels_id)?.push(team);
  return levels.map((level) => {
    const rows = byLevel.get(LEVELS[level])!.sort(compareForProjector);
    return {
      level,
      title: BOARD_LEVEL_TITLES[level],
      teams: rows,
      maxAttempts: Math.max(1, rows[0]?.number_attempts ?? 0),
    };
  });
}
