import { useEffect, useState } from 'react';
import { Alert, Button, Dialog, List, Portal, Spinner, Text } from '@chakra-ui/react';
import { MESSAGES, type ContestProcessRow, type ContestRow } from '@concurso/shared';
import { fetchContestProcesses } from '../../api/catalog-api';
import { ListWarning, describeListError } from '../../stores/catalog-state';
import { useCatalogStore } from '../../stores/catalog-store';

/** Props of {@link ContestProcessesDialog}. */
export interface ContestProcessesDialogProps {
  /** The contest shown; kept while the dialog closes so its text does not vanish. */
  contest: ContestRow | null;
  open: boolean;
  onClose: () => void;
}

interface Loaded {
  contestId: number;
  rows: ContestProcessRow[];
  error: string | null;
}

/**
 * 'Ver procesos': the processes blocked for a contest, or 'No se encontraron procesos.'. Refetches while
 * open when another admin changes the set (or a process name).
 */
export function ContestProcessesDialog({ contest, open, onClose }: ContestProcessesDialogProps) {
  const version = useCatalogStore((state) => state.versions.contest_processes);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const contestId = contest?.id ?? null;

  useEffect(() => {
    if (!open || contestId === null) return;
    const controller = new AbortController();
    fetchContestProcesses(contestId, controller.signal)
      .then((answer) => {
        if (answer.success === false) throw new ListWarning(answer.message);
        setLoaded({ contestId, rows: answer.data, error: null });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('No se pudieron cargar los procesos del concurso', error);
        setLoaded({ contestId, rows: [], error: describeListError(error).message });
      });
    return () => controller.abort();
  }, [open, contestId, version]);

  // Rows of another contest are never shown, not even for a moment.
  const current = loaded && loaded.contestId === contestId ? loaded : null;

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      placement="center"
      scrollBehavior="inside"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="contest-processes-dialog">
            <Dialog.Header>
              <Dialog.Title>
                Procesos bloqueados del concurso {contest?.calendar ?? ''} ({contest?.date ?? ''})
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {!current ? (
                <Spinner size="sm" aria-label="Cargando…" />
              ) : current.error ? (
                <Alert.Root status="error">
                  <Alert.Indicator />
                  <Alert.Title>{current.error}</Alert.Title>
                </Alert.Root>
              ) : current.rows.length === 0 ? (
                <Text color="fg.muted">{MESSAGES.noProcesses}</Text>
              ) : (
                <List.Root as="ol" ps="5" gap="1">
                  {current.rows.map((row) => (
                    <List.Item key={row.id}>{row.processes?.name ?? ''}</List.Item>
                  ))}
                </List.Root>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button colorPalette="blue" onClick={onClose}>
                Cerrar
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
