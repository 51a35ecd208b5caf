import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import type { BoardTeam } from '@concurso/shared';
import { ProjectorRowLine } from './projector-row';

/** Props of {@link ProjectorRowMeasurer}. */
export interface ProjectorRowMeasurerProps {
  /** Every team of the level (any order). */
  teams: readonly BoardTeam[];
  /** Reports each hidden row's height (`use-row-heights.ts`). */
  observer: ResizeObserver;
}

/**
 * Every row of a level, laid out but invisible and with no test ids, in the column's width: the
 * column pages from these heights (issue 14), since a row off the current page is not on screen to
 * be measured. Kept in team-id order so a re-sort moves no element, and each hidden row re-renders
 * only when something that changes its height does (name, marks, digits of the count), never on a
 * plain attempt: the projector stays cheap at thousands of teams (bench:projector).
 */
export const ProjectorRowMeasurer = memo(function ProjectorRowMeasurer({
  teams,
  observer,
}: ProjectorRowMeasurerProps) {
  const byId = useMemo(() => [...teams].sort((a, b) => a.id - b.id), [teams]);
  return (
    <div className="projector-measure" aria-hidden>
      {byId.map((team) => (
        <MeasuredRow key={team.id} team={team} observer={observer} />
      ))}
    </div>
  );
});

/** One hidden row, observed while mounted. */
const MeasuredRow = memo(
  function MeasuredRow({ team, observer }: { team: BoardTeam; observer: ResizeObserver }) {
    const ref = useRef<HTMLDivElement>(null);
    useLayoutEffect(() => {
      const element = ref.current!;
      observer.observe(element);
      return () => observer.unobserve(element);
    }, [observer]);
    return (
      <div ref={ref} className="projector-row" data-team-id={team.id}>
        <ProjectorRowLine team={team} place={0} maxAttempts={1} />
      </div>
    );
  },
  (before, after) =>
    before.observer === after.observer &&
    before.team.name === after.team.name &&
    before.team.status_team.id === after.team.status_team.id &&
    before.team.agent_online === after.team.agent_online &&
    String(before.team.number_attempts).length === String(after.team.number_attempts).length,
);
