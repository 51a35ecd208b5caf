import { memo, useLayoutEffect, useMemo, useRef, type CSSProperties } from 'react';
import { TEAM_STATUS, type BoardTeam } from '@concurso/shared';
import { ProjectorRowLine } from './projector-row';

/**
 * The measurer's box (added to the projector's style sheet by `projector-scene.tsx`): laid out in the
 * column's width but 0 px high, invisible and out of the pointer's way.
 */
export const PROJECTOR_MEASURE_CSS = `
  .projector-measure {
    position: absolute;
    inset-inline: 0;
    top: 0;
    height: 0;
    overflow: hidden;
    visibility: hidden;
    pointer-events: none;
  }
`;

/** Props of {@link ProjectorRowMeasurer}. */
export interface ProjectorRowMeasurerProps {
  /** Every team of the level (any order). */
  teams: readonly BoardTeam[];
  /** The level's largest count: the samples show it, so their name width is the narrowest. */
  maxAttempts: number;
  /** Width (px) names wrap in, as measured on the samples (`use-row-heights.ts`). */
  nameWidth: number;
  /** Reports the samples' and names' sizes (`use-row-heights.ts`). */
  observer: ResizeObserver;
}

/**
 * What a column measures to page, laid out but invisible and with no test ids, in the
 * column's width: two sample rows (a one-line name, without and with marks) and every team's name
 * alone at the width names wrap in. A row off the current page is not on screen to be measured, and
 * measuring whole rows at thousands of teams cost long tasks; names change only when a team is
 * renamed, so an attempt or a block re-renders nothing here (bench:projector).
 */
export const ProjectorRowMeasurer = memo(function ProjectorRowMeasurer({
  teams,
  maxAttempts,
  nameWidth,
  observer,
}: ProjectorRowMeasurerProps) {
  const names = useStableNames(teams);
  return (
    <div className="projector-measure" aria-hidden>
      <Samples digits={String(maxAttempts).length} observer={observer} />
      {/* Not before the samples give the width: names laid out at 0 px would be measured for nothing. */}
      {nameWidth > 0 ? <NameList names={names} width={nameWidth} observer={observer} /> : null}
    </div>
  );
});

/** The level's [id, name] pairs by id; the same array while no team was added, removed or renamed. */
function useStableNames(teams: readonly BoardTeam[]): ReadonlyArray<readonly [number, string]> {
  const previous = useRef<ReadonlyArray<readonly [number, string]>>([]);
  return useMemo(() => {
    const next = teams.map((team) => [team.id, team.name] as const).sort((a, b) => a[0] - b[0]);
    const old = previous.current;
    const same =
      old.length === next.length && next.every(([id, name], i) => old[i]![0] === id && old[i]![1] === name);
    if (!same) previous.current = next;
    return previous.current;
  }, [teams]);
}

/** A sample team: a one-line name, with marks under it or not, and a count of `digits` digits. */
function sampleTeam(marks: boolean, digits: number): BoardTeam {
  return {
    id: 0,
    name: 'Equipo',
    levels_id: 0,
    number_attempts: 10 ** (digits - 1) * 8,
    status_team: marks
      ? { id: TEAM_STATUS.disqualified, status: 'Descalificado' }
      : { id: TEAM_STATUS.active, status: 'Activo' },
    agent_online: !marks,
    agent_alert: null,
    version: 0,
  };
}

/** The two sample rows; every part whose size matters is observed. */
const Samples = memo(function Samples({ digits, observer }: { digits: number; observer: ResizeObserver }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const parts = Array.from(
      ref.current!.querySelectorAll('.projector-row, .projector-row-main, .projector-row-count'),
    );
    for (const part of parts) observer.observe(part);
    return () => parts.forEach((part) => observer.unobserve(part));
  }, [observer, digits]);
  return (
    <div ref={ref} data-projector-samples="">
      <div className="projector-row" data-sample="plain">
        <ProjectorRowLine team={sampleTeam(false, digits)} place={0} maxAttempts={1} />
      </div>
      <div className="projector-row" data-sample="marks">
        <ProjectorRowLine team={sampleTeam(true, digits)} place={0} maxAttempts={1} />
      </div>
    </div>
  );
});

/** Every name alone, at the width names wrap in. */
const NameList = memo(function NameList({
  names,
  width,
  observer,
}: {
  names: ReadonlyArray<readonly [number, string]>;
  width: number;
  observer: ResizeObserver;
}) {
  return (
    <div className="projector-measure-names" style={{ width }}>
      {names.map(([id, name]) => (
        <MeasuredName key={id} id={id} name={name} observer={observer} />
      ))}
    </div>
  );
});

/** One name, observed while mounted. */
const MeasuredName = memo(function MeasuredName({
  id,
  name,
  observer,
}: {
  id: number;
  name: string;
  observer: ResizeObserver;
}) {
  const ref = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => {
    const element = ref.current!;
    observer.observe(element);
    return () => observer.unobserve(element);
  }, [observer]);
  return (
    <p
      ref={ref}
      className="projector-row-name"
      data-team-id={id}
      style={{ '--name-chars': name.length } as CSSProperties}
    >
      {name}
    </p>
  );
});
