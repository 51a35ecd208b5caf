import { memo, useEffect, useRef, useState, type CSSProperties } from 'react';
import { TEAM_STATUS, agentBadgeText, isAgentAlarm, type BoardTeam } from '@concurso/shared';
import { projectorRowHasMarks } from './projector-model';

/** Props of {@link ProjectorRow}. */
export interface ProjectorRowProps {
  team: BoardTeam;
  /** 1-based place in its level. */
  place: number;
  /** The level's largest attempt count (bar scale). */
  maxAttempts: number;
}

/** How long a changed row stays highlighted (ms). */
const HIGHLIGHT_MS = 1_600;

/**
 * The rows' styles, once for every row (the scene puts them in its `<style>`): a row renders plain
 * elements with these classes, so rendering a changed row writes a few attributes and texts and
 * computes no style (changed rows render without restyling the list). Chakra's style props
 * serialise and hash each element's styles on every render, which was most of the projector's
 * script time at 100 changes per second. Colours and sizes are the theme's tokens (CSS variables).
 */
export const PROJECTOR_ROW_CSS = `
  .projector-row {
    position: relative;
    overflow: hidden;
    padding: var(--projector-space) calc(var(--projector-space) * 3);
    border-bottom: 1px solid var(--chakra-colors-white-alpha-200);
    /* The row's layout and paint stay inside it: a changed row does not invalidate its neighbours. */
    contain: layout paint;
  }
  .projector-row[data-status]:not([data-status="${TEAM_STATUS.active}"]) {
    background: var(--chakra-colors-red-900);
  }
  /* A narrow marker, not a whole-row colour: without a GPU every painted pixel costs, and at 100
     changes per second a coloured row repainted on and off was most of the projector's long tasks. */
  .projector-row-marker {
    position: absolute;
    inset-block: 0;
    inset-inline-start: 0;
    width: 0.4em;
    background: var(--chakra-colors-yellow-400);
  }
  .projector-row-line {
    position: relative;
    display: flex;
    align-items: center;
    gap: calc(var(--projector-space) * 2.5);
  }
  .projector-row-place {
    flex-shrink: 0;
    width: 2.2em;
    text-align: end;
    color: var(--chakra-colors-white-alpha-700);
    font-size: var(--projector-small);
  }
  /* Two lines: the name over the whole width, then the bar with the marks at its end, so a mark adds
     only what it is taller than the bar (at least 15 rows with marks per level at 1920x1080). */
  .projector-row-main {
    flex: 1;
    min-width: 0;
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    align-items: center;
    column-gap: calc(var(--projector-space) * 2);
    row-gap: calc(var(--projector-space) * 0.75);
  }
  /* A name is never cut. It wraps (a long word too) and keeps its size for about two lines
     of --projector-name-width (the width names wrap in, set by the column; --name-chars is the name's
     length, ~0.55em a character); a longer name shrinks towards two lines, down to 75 % so it stays
     readable from the back of the hall, and below that simply takes more lines. */
  .projector-row-name {
    font-size: max(
      calc(var(--projector-name) * 0.75),
      min(var(--projector-name), calc(2 * var(--projector-name-width, 100vw) / (var(--name-chars, 1) * 0.55)))
    );
    grid-column: 1 / -1;
    line-height: 1.1;
    font-weight: var(--chakra-font-weights-semibold);
    overflow-wrap: anywhere;
  }
  .projector-row-name[data-disqualified] { text-decoration: line-through; }
  /* Marks go under the name, never beside it: beside it they took the name's room ("M…"). */
  .projector-row-badges {
    grid-row: 2;
    grid-column: 2;
    display: flex;
    flex-wrap: wrap;
    justify-content: flex-end;
    gap: calc(var(--projector-space) * 1.5);
  }
  .projector-row-badge {
    display: inline-flex;
    align-items: center;
    flex-shrink: 0;
    padding-inline: 0.4em;
    border-radius: var(--chakra-radii-l2);
    font-size: var(--projector-badge);
    line-height: 1.2;
    font-weight: var(--chakra-font-weights-medium);
    white-space: nowrap;
    user-select: none;
    background: var(--chakra-colors-gray-solid);
    color: var(--chakra-colors-gray-contrast);
  }
  .projector-row-badge[data-tone="red"] {
    background: var(--chakra-colors-red-solid);
    color: var(--chakra-colors-red-contrast);
  }
  .projector-row-track {
    grid-row: 2;
    grid-column: 1;
    height: 0.3em;
    background: var(--chakra-colors-white-alpha-200);
    border-radius: var(--chakra-radii-full);
    font-size: var(--projector-name);
  }
  .projector-row-bar {
    height: 100%;
    border-radius: var(--chakra-radii-full);
    background: var(--chakra-colors-orange-400);
  }
  .projector-row-bar[data-disqualified] { background: var(--chakra-colors-red-400); }
  .projector-row-count {
    flex-shrink: 0;
    min-width: 2.5ch;
    text-align: end;
    font-size: var(--projector-count);
    line-height: 1;
    font-weight: var(--chakra-font-weights-bold);
    font-variant-numeric: tabular-nums;
  }
  .projector-row[data-highlighted] .projector-row-count { color: var(--chakra-colors-yellow-300); }
`;

/**
 * One team on the projector: place, name (whole, wrapping), plain marks under it for a
 * disqualified team or a silent agent, a bar proportional to its attempts, and the count in large type. A row whose `version` changed while
 * on screen is highlighted (a yellow marker and count) for `HIGHLIGHT_MS`. Memoized: an event
 * re-renders only its own row, and a render sets classes and attributes only (`PROJECTOR_ROW_CSS`).
 */
export const ProjectorRow = memo(function ProjectorRow({ team, place, maxAttempts }: ProjectorRowProps) {
  const seenVersion = useRef(team.version);
  const [flash, setFlash] = useState(0);
  const [highlighted, setHighlighted] = useState(false);
  useEffect(() => {
    if (team.version === seenVersion.current) return;
    seenVersion.current = team.version;
    setFlash((n) => n + 1);
    setHighlighted(true);
  }, [team.version]);
  useEffect(() => {
    if (!highlighted) return;
    const timer = setTimeout(() => setHighlighted(false), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted, flash]);

  return (
    <div
      className="projector-row"
      data-testid={`projector-row-${team.id}`}
      data-status={team.status_team.id}
      data-flash={flash > 0 ? flash : undefined}
      data-highlighted={highlighted ? '' : undefined}
    >
      {highlighted ? <div className="projector-row-marker" /> : null}
      <ProjectorRowLine team={team} place={place} maxAttempts={maxAttempts} testIds />
    </div>
  );
});

/**
 * The inside of a projector row (place, name, marks under the name, bar, count), shared by the row on
 * screen and the hidden sample rows the column measures (`projector-row-measurer.tsx`), so a row's
 * height follows from the samples'. `testIds` marks the count for the tests (only on the row on screen).
 */
export function ProjectorRowLine({
  team,
  place,
  maxAttempts,
  testIds,
}: ProjectorRowProps & { testIds?: boolean }) {
  const disqualified = team.status_team.id !== TEAM_STATUS.active;
  const share = Math.min(1, team.number_attempts / maxAttempts);
  const disqualifiedMark = disqualified ? '' : undefined;
  return (
    <div className="projector-row-line">
      <p className="projector-row-place">{place}</p>
      <div className="projector-row-main">
        <p
          className="projector-row-name"
          data-disqualified={disqualifiedMark}
          style={{ '--name-chars': team.name.length } as CSSProperties}
        >
          {team.name}
        </p>
        {/* The same rule the pages are sized by (`projectorRowHeight`). */}
        {projectorRowHasMarks(team) ? (
          <div className="projector-row-badges">
            {disqualified ? (
              <span className="projector-row-badge" data-tone="red">
                DESCALIFICADO
              </span>
            ) : null}
            {team.agent_online ? null : (
              <span
                className="projector-row-badge"
                // The alarms in red: silent, or stopped and not resumed within the window.
                data-tone={isAgentAlarm(team.agent_alert) ? 'red' : undefined}
              >
                {agentBadgeText(team).toLowerCase()}
              </span>
            )}
          </div>
        ) : null}
        <div className="projector-row-track">
          <div
            className="projector-row-bar"
            data-disqualified={disqualifiedMark}
            style={{ width: `${share * 100}%` }}
          />
        </div>
      </div>
      <p className="projector-row-count" data-testid={testIds ? `projector-attempts-${team.id}` : undefined}>
        {team.number_attempts}
      </p>
    </div>
  );
}
