import type { ReactNode } from 'react';
import { Alert } from '@chakra-ui/react';
import { MESSAGES } from '@concurso/shared';

/** Props of {@link Notice}. */
export interface NoticeProps {
  /** The alert's colour and icon: 'info' (a state, e.g. no active contest), 'warning', 'error'. */
  status: 'info' | 'warning' | 'error';
  /** The `data-testid` the end-to-end tests find it by, if any. */
  testId?: string;
  children: ReactNode;
}

/** A one-line notice above or in place of a screen's content: Chakra's alert with its icon and title. */
export function Notice({ status, testId, children }: NoticeProps) {
  return (
    <Alert.Root status={status} data-testid={testId}>
      <Alert.Indicator />
      <Alert.Title>{children}</Alert.Title>
    </Alert.Root>
  );
}

/**
 * What the board and /bitacora show instead of their content when no contest is active:
 * `MESSAGES.noActiveContest`, which says an administrator activates one in Concursos (the end-to-end
 * tests find it by `no-active-contest`).
 */
export function NoActiveContestNotice() {
  return (
    <Notice status="info" testId="no-active-contest">
      {MESSAGES.noActiveContest}
    </Notice>
  );
}
