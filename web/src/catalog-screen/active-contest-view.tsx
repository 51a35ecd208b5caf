import type { ReactNode } from 'react';
import { Stack, Text } from '@chakra-ui/react';
import type { ContestRow } from '@concurso/shared';
import { describeError } from '../api/api-error';
import { formatDate } from '../ui/date-time';
import { NoActiveContestNotice, Notice } from '../ui/layout/notice';

/** Props of {@link ActiveContestView}. */
export interface ActiveContestViewProps {
  /** The screen's query as TanStack Query gives it: its error, and its data's `contest`. */
  query: { isError: boolean; error: unknown; data?: { contest: ContestRow | null } };
  /** The `data-testid` of the contest's line. */
  contestTestId: string;
  /** Said after the contest on its line (e.g. a setting of it), if anything. */
  note?: string;
  children: ReactNode;
}

/**
 * The body of a screen about the active contest (/bitacora, /procesosObservados): the query's error in
 * Spanish, `MESSAGES.noActiveContest` in place of the content when none is active, else
 * the contest's line ('Concurso 2026B · 21/11/2026') above the content.
 */
export function ActiveContestView({ query, contestTestId, note, children }: ActiveContestViewProps) {
  const contest = query.data?.contest;
  return (
    <Stack gap="4">
      {query.isError ? <Notice status="error">{describeError(query.error)}</Notice> : null}
      {contest === null ? (
        <NoActiveContestNotice />
      ) : (
        <>
          {contest ? (
            <Text color="fg.muted" data-testid={contestTestId}>
              Concurso {contest.calendar} · {formatDate(contest.date)}
              {note ? ` · ${note}` : ''}
            </Text>
          ) : null}
          {children}
        </>
      )}
    </Stack>
  );
}
