import type { ReactNode } from 'react';
import type { ListQuery } from '../api/queries/list-query';
import { AppDialog } from '../ui/dialog/app-dialog';
import { QueryListBody } from './query-list-body';
import { useOpenListQuery } from './use-open-list-query';

/** Props of {@link ListDialog}. */
export interface ListDialogProps<T> {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  testId: string;
  size?: 'md' | 'lg' | 'xl';
  /**
   * What is listed (`listQuery` of a list route, e.g. a contest's blocked processes), or null when
   * nothing is. Its key names the catalogue whose `catalog.changed` refetches it while the dialog is
   * open; rows of another key are never shown, not even for a moment.
   */
  query: ListQuery<T> | null;
  /** Shown when the list is empty (a docs/spec.md text such as `MESSAGES.noProcesses`). */
  emptyText: string;
  children: (rows: T[]) => ReactNode;
}

/**
 * A read-only list in a modal (contest processes, exercises of a contest and level, team members):
 * fetched when it opens (cached rows of the same list show meanwhile), refetched while open when the
 * push channel says it is stale or a write from the dialog settles, with a spinner, a Spanish error
 * (docs/spec.md section 8) or `emptyText` in place of rows, and a 'Cerrar' button.
 */
export function ListDialog<T>({
  open,
  onClose,
  title,
  testId,
  size,
  query,
  emptyText,
  children,
}: ListDialogProps<T>) {
  const list = useOpenListQuery(query, open);

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={title}
      size={size}
      scrollBehavior="inside"
      testId={testId}
      closeLabel="Cerrar"
    >
      <QueryListBody list={list} emptyText={emptyText}>
        {children}
      </QueryListBody>
    </AppDialog>
  );
}
