import { Text } from '@chakra-ui/react';
import { MESSAGES } from '@concurso/shared';
import type { BoardContest } from '../../stores/board-state';
import { formatDate } from '../../ui/date-time';

/**
 * The active contest line of the board, or `MESSAGES.noActiveContestTitle` ('Sin concurso activo';
 * docs/design.md section 3).
 */
export function ContestSummary({ contest }: { contest: BoardContest | null }) {
  return (
    <Text data-testid="current-contest" fontSize="md">
      {contest ? (
        <>
          Concurso actual: <strong>{contest.calendar}</strong> · {formatDate(contest.date)}
        </>
      ) : (
        MESSAGES.noActiveContestTitle
      )}
    </Text>
  );
}
