import { Text } from '@chakra-ui/react';
import { MESSAGES } from '@concurso/shared';
import type { BoardContest } from '../../stores/board-state';

/** 'YYYY-MM-DD' (or an ISO timestamp) shown as 'DD/MM/YYYY'; other texts are shown as they are. */
export function formatContestDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : date;
}

/** The current contest line of the board, or 'No hay un concurso registrado todavía.'. */
export function ContestSummary({ contest }: { contest: BoardContest | null }) {
  return (
    <Text data-testid="current-contest" fontSize="md">
      {contest ? (
        <>
          Concurso actual: <strong>{contest.calendar}</strong> · {formatContestDate(contest.date)}
        </>
      ) : (
        MESSAGES.noCurrentContest
      )}
    </Text>
  );
}
