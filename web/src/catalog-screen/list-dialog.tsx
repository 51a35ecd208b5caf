import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Spinner, Text } from '@chakra-ui/react';
import type { CatalogName } from '@concurso/shared';
import { describeListError, listRows, type ListEnvelope } from '../api/catalog-cache/catalog-state';
import { useCatalogStore } from '../api/catalog-cache/catalog-store';
import { AppDialog } from '../ui/dialog/app-dialog';

/** Props of {@link ListDialog}. */
export interface ListDialogProps<T> {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  testId: string;
  size?: 'md' | 'lg' | 'xl';
  /**
   * What is listed (e.g. `"contest:4"`), or null when nothing is. Rows fetched for another key are
   * never shown, not even for a moment.
   */
  listKey: string | null;
  /** Fetches the rows of `listKey`; read at fetch time, so it need not be stable. */
  fetchRows: (signal: AbortSignal) => Promise<ListEnvelope<T>>;
  /** The catalogue whose `catalog.changed` refetches the list while the dialog is open. */
  follows: CatalogName;
  /** Shown when the list is empty (a SPEC.md text such as `MESSAGES.noProcesses`). */
  emptyText: string;
  /** For the console when the fetch fails (Spanish, like every log the staff may read). */
  what: string;
  /** The rows; `reload` refetches them (after a change made from the dialog itself). */
  children: (rows: T[], reload: () => void) => ReactNode;
}

/**
 * A read-only list in a modal (contest processes, exercises of a contest and level, team members):
 * fetched when it opens, aborted when it closes or moves to another key, refetched while open when
 * another admin changes `follows`, with a spinner, a Spanish error or `emptyText` in place of rows,
 * and a 'Cerrar' button.
 */
export function ListDialog<T>({
  open,
  onClose,
  title,
  testId,
  size,
  listKey,
  fetchRows,
  follows,
  emptyText,
  what,
  children,
}: ListDialogProps<T>) {
  const version = useCatalogStore((state) => state.versions[follows]);
  const [loaded, setLoaded] = useState<{ key: string; rows: T[]; error: string | null } | null>(null);
  const [reloads, setReloads] = useState(0);
  const fetcher = useRef(fetchRows);
  fetcher.current = fetchRows;

  useEffect(() => {
    if (!open || listKey === null) return;
    const controller = new AbortController();
    fetcher
      .current(controller.signal)
      .then((answer) => setLoaded({ key: listKey, rows: listRows(answer), error: null }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(`No se pudieron cargar ${what}`, error);
        setLoaded({ key: listKey, rows: [], error: describeListError(error).message });
      });
    return () => controller.abort();
  }, [open, listKey, version, reloads, what]);

  const current = loaded && loaded.key === listKey ? loaded : null;

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
      {!current ? (
        <Spinner size="sm" aria-label="Cargando…" />
      ) : current.error ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{current.error}</Alert.Title>
        </Alert.Root>
      ) : current.rows.length === 0 ? (
        <Text color="fg.muted">{emptyText}</Text>
      ) : (
        children(current.rows, () => setReloads((count) => count + 1))
      )}
    </AppDialog>
  );
}
