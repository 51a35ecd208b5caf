import type { ReactNode } from 'react';
import { Alert, Spinner, Text } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import { describeListError } from '../api/queries/list-errors';

/** Props of {@link QueryListBody}. */
export interface QueryListBodyProps<T> {
  /** The list's query (TanStack Query). */
  list: UseQueryResult<T[]>;
  /** Shown when the list is empty (a docs/spec.md text such as `MESSAGES.noProcesses`). */
  emptyText: string;
  children: (rows: T[]) => ReactNode;
}

/**
 * A fetched list's body: a spinner until it loads, its Spanish error (docs/spec.md section 8), `emptyText`
 * when it has no rows, else `children` with the rows. Used by `ListDialog` and the board's history.
 */
export function QueryListBody<T>({ list, emptyText, children }: QueryListBodyProps<T>) {
  if (list.isError)
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{describeListError(list.error).message}</Alert.Title>
      </Alert.Root>
    );
  if (!list.data) return <Spinner size="sm" aria-label="Cargando…" />;
  if (list.data.length === 0) return <Text color="fg.muted">{emptyText}</Text>;
  return children(list.data);
}
