import { Alert, Text } from '@chakra-ui/react';
import { MESSAGES } from '@concurso/shared';
import type { BoardContest } from '../../stores/board-state';

/** The board's line when no contest is active (issue 13); the notice below it says what to do. */
export const NO_ACTIVE_CONTEST_LINE = 'Sin concurso activo';

/** 'YYYY-MM-DD' (or an ISO timestamp) shown as 'DD/MM/YYYY'; other texts are shown as they are. */
export function formatContestDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : date;
}

/** The active contest line of the board, or 'Sin concurso activo' (DESIGN.md section 3, issue 13). */
export function ContestSummary({ contest }: { contest: BoardContest | null }) {
  return (
    <Text data-testid="current-contest" fontSize="md">
      {contest ? (
        <>
          Concurso actual: <strong>{contest.calendar}</strong> · {formatContestDate(contest.date)}
        </>
      ) : (
        NO_ACTIVE_CONTEST_LINE
      )}
    </Text>
  );
}

/**
 * What the board shows instead of its three empty level tables when no contest is active (issue 13):
 * `MESSAGES.noActiveContest`, which says an administrator activates one in Concursos. The board
 * switches back to the tables by itself once one is activated (the server pushes `board.reset`).
 */
export function NoActiveContestNotice() {
  return (
    <Alert.Root status="info" data-testid="no-active-contest">
      <Alert.Indicator />
      <Alert.Title>{MESSAGES.noActiveContest}</Alert.Title>
    </Alert.Root>
  );
}
