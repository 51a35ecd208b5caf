import { isRecentNewProgram, type BoardTeam } from '@concurso/shared';

/**
 * The board's «programa nuevo» mark of a team (pure, tested in Node): shown while the team's newest
 * program that no other team ran (after the contest's first minutes; the rule in the server's observed
 * module README) started less than `NEW_PROGRAM_RECENT_MS` ago (`now`, ms since the epoch), so an
 * unknown tool is looked at while it runs. The program's name goes in the badge's title (a tooltip),
 * where /procesosObservados gives its machine and path.
 */
export function newProgramMark(
  team: Pick<BoardTeam, 'new_program'>,
  now: number,
): { label: string; title: string } | null {
  const mark = team.new_program;
  if (!isRecentNewProgram(mark, now)) return null;
  return { label: 'Programa nuevo', title: `Programa nuevo: ${mark.name}` };
}

/** How often an open board checks whether a mark grew old (ms): a minute late at most. */
export const NEW_PROGRAM_CHECK_MS = 30_000;
