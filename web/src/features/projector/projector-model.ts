/**
 * Pure logic of the projector view (/proyector): which levels it shows, each level's teams in the
 * hall's order, most attempts first, and how a level's list is cut into pages that fit its column.
 * Kept free of React so it is unit-tested as is.
 */
import {
  BOARD_LEVEL_KEYS,
  BOARD_LEVEL_TITLES,
  LEVELS,
  MESSAGES,
  PROJECTOR_PAGING,
  TEAM_STATUS,
  type BoardLevelKey,
  type BoardTeam,
  type ContestRow,
} from '@concurso/shared';

/**
 * The projector's heading: 'Concurso 2026B' for the active contest, `MESSAGES.noActiveContestTitle`
 * ('Sin concurso activo') when none is (the body then shows `MESSAGES.noActiveContest`
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

/**
 * The level ids the projector's socket follows: those of `levels` when it shows fewer than
 * all (`?nivel=`), so the server sends it only their rows; undefined (every level) otherwise.
 */
export function projectorFollowedLevels(levels: readonly BoardLevelKey[]): number[] | undefined {
  return levels.length < BOARD_LEVEL_KEYS.length ? levels.map((key) => LEVELS[key]) : undefined;
}

// One collator for every comparison: `localeCompare(…, 'es')` builds one per call, far slower.
const collator = new Intl.Collator('es');

/** Most attempts first; ties by name (Spanish collation), then id, so the order never flickers. */
function compareForProjector(a: BoardTeam, b: BoardTeam): number {
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

/**
 * The paging period (seconds) for `?segundos=N`: N when it is a whole number within
 * `PROJECTOR_PAGING.minSeconds`..`maxSeconds` (3..120), otherwise `PROJECTOR_PAGING.defaultSeconds` (10),
 * so a typo on the hall's kiosk never makes the pages flicker or freeze.
 */
export function projectorPagingSeconds(segundos: string | null): number {
  const { defaultSeconds, minSeconds, maxSeconds } = PROJECTOR_PAGING;
  if (segundos === null || !/^\d{1,3}$/.test(segundos.trim())) return defaultSeconds;
  const seconds = Number(segundos.trim());
  return seconds >= minSeconds && seconds <= maxSeconds ? seconds : defaultSeconds;
}

/**
 * Cuts a list of rows into pages that fit a box: `heights` are the rows' measured heights in the
 * list's order (px) and `available` the box's height (px). Pages keep the board's order and hold only
 * whole rows (their heights add up to at most `available`), except that a row taller than the box gets
 * a page of its own, so paging always moves on. As few pages as fit, and balanced: the pages are cut
 * at the smallest height that still needs no more pages, so 10 rows where 9 fit show 5 and 5, not 9
 * and 1 (a last page with one team left the hall's screen nearly empty half the time).
 * Returns each page's first index, ascending: `[0]` for an empty list or one that fits (one page).
 * O(n) per try, about 40 tries when the list pages.
 */
export function projectorPageStarts(heights: readonly number[], available: number): number[] {
  const fewest = cutPages(heights, available);
  if (fewest.length <= 1) return fewest;
  // The page count only grows as the height shrinks: search the smallest height with as few pages.
  let low = 0;
  let high = available;
  for (let i = 0; i < 40 && high - low > 0.01; i++) {
    const middle = (low + high) / 2;
    if (cutPages(heights, middle).length > fewest.length) low = middle;
    else high = middle;
  }
  return cutPages(heights, high);
}

/** Greedy in order: a new page whenever the next row would pass `available` (px). */
function cutPages(heights: readonly number[], available: number): number[] {
  const starts = [0];
  let used = 0;
  heights.forEach((height, index) => {
    if (used > 0 && used + height > available) {
      starts.push(index);
      used = 0;
    }
    used += height;
  });
  return starts;
}

/**
 * The page a column shows (0-based) when it had `index` and now has `count` pages: the same page while
 * it exists, the last one when the list shrank below it (a live change never sends the hall
 * back to page 1).
 */
export function clampProjectorPage(index: number, count: number): number {
  return Math.max(0, Math.min(index, count - 1));
}

/** The page after `index` among `count` pages, back to the first after the last. */
export function nextProjectorPage(index: number, count: number): number {
  return count <= 1 ? 0 : (clampProjectorPage(index, count) + 1) % count;
}

/** The items of page `index` (clamped) given the pages' first indexes from {@link projectorPageStarts}. */
export function projectorPageItems<T>(items: readonly T[], starts: readonly number[], index: number): T[] {
  const page = clampProjectorPage(index, starts.length);
  return items.slice(starts[page] ?? 0, starts[page + 1] ?? items.length);
}

/** The level's page line, 'Página 1 de 3' (`index` 0-based), shown only when there is more than one page. */
export function projectorPageLabel(index: number, count: number): string {
  return `Página ${clampProjectorPage(index, count) + 1} de ${count}`;
}

/**
 * A row's parts as measured on the column's two sample rows (px), from which any row's height follows
 * (`projectorRowHeight`): measuring every row in full cost the projector its long-task budget at
 * thousands of teams, while names (the one part that varies freely) are measured alone.
 */
export interface ProjectorRowMetrics {
  /** Border-box height of the sample row: one-line name, no marks. */
  row: number;
  /** Height of its middle part (name, marks, bar). */
  main: number;
  /** Height of its one-line name. */
  name: number;
  /** Height of its count (the tallest of the side parts). */
  count: number;
  /** What the marks' line (DESCALIFICADO, agente sin conexión) adds to the middle part. */
  marks: number;
}

/**
 * The height (px) of a row whose name measures `nameHeight` and that has marks under it or not: the
 * middle part grows by the name's extra lines and the marks' line; the row is its padding and border
 * plus the taller of the middle part and the count.
 */
export function projectorRowHeight(nameHeight: number, marks: boolean, metrics: ProjectorRowMetrics): number {
  const chrome = metrics.row - Math.max(metrics.main, metrics.count);
  const main = metrics.main - metrics.name + nameHeight + (marks ? metrics.marks : 0);
  return chrome + Math.max(main, metrics.count);
}

/**
 * The heights (px) to page `teams` with, from the names measured so far (`names`, by team id) and the
 * sample rows' `metrics`. A name not measured yet (a team that just arrived) counts as the tallest
 * measured one, so a page never holds more than fits; null while nothing is measured (the column then
 * shows no rows for that frame rather than rows that might be cut).
 */
export function projectorRowHeights(
  teams: readonly BoardTeam[],
  names: ReadonlyMap<number, number>,
  metrics: ProjectorRowMetrics | null,
): number[] | null {
  if (teams.length === 0) return [];
  if (!metrics || names.size === 0) return null;
  let tallest = 0;
  for (const height of names.values()) tallest = Math.max(tallest, height);
  return teams.map((team) =>
    projectorRowHeight(names.get(team.id) ?? tallest, projectorRowHasMarks(team), metrics),
  );
}

/** Whether a row shows marks under the name: DESCALIFICADO, or agente sin conexión. */
export function projectorRowHasMarks(team: BoardTeam): boolean {
  return team.status_team.id !== TEAM_STATUS.active || !team.agent_online;
}
