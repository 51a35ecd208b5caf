import { useEffect, useState } from 'react';
import { Alert, Button, Dialog, List, Portal, Spinner, Text } from '@chakra-ui/react';
import { MESSAGES, type ExerciseRow } from '@concurso/shared';
import { fetchExercisesCombo, type ExerciseComboItem } from '../../api/exercise-api';
import { ListWarning, describeListError } from '../../stores/catalog-state';
import { useCatalogStore } from '../../stores/catalog-store';

/** Props of {@link ExerciseListDialog}. */
export interface ExerciseListDialogProps {
  /** The row whose contest and level are listed; kept while the dialog closes. */
  exercise: ExerciseRow | null;
  open: boolean;
  onClose: () => void;
}

interface Loaded {
  key: string;
  rows: ExerciseComboItem[];
  error: string | null;
}

/**
 * 'Ver ejercicios': the names of the exercises of the row's contest and level
 * (`GET /api/exercisesCombo/{contestId}/{levelId}`), or 'No se encontraron ejercicios registrados.'.
 * Refetches while open when another admin changes the exercises.
 */
export function ExerciseListDialog({ exercise, open, onClose }: ExerciseListDialogProps) {
  const version = useCatalogStore((state) => state.versions.exercises);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const contestId = exercise?.contests_id ?? null;
  const levelId = exercise?.levels_id ?? null;
  const key = `${contestId}/${levelId}`;

  useEffect(() => {
    if (!open || contestId === null || levelId === null) return;
    const controller = new AbortController();
    const loadKey = `${contestId}/${levelId}`;
    fetchExercisesCombo(contestId, levelId, controller.signal)
      .then((answer) => {
        if (answer.success === false) throw new ListWarning(answer.message);
        setLoaded({ key: loadKey, rows: answer.data, error: null });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('No se pudieron cargar los ejercicios', error);
        setLoaded({ key: loadKey, rows: [], error: describeListError(error).message });
      });
    return () => controller.abort();
  }, [open, contestId, levelId, version]);

  // Another contest's or level's exercises are never shown, not even for a moment.
  const current = loaded && loaded.key === key ? loaded : null;

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
          <Dialog.Content data-testid="exercise-list-dialog">
            <Dialog.Header>
              <Dialog.Title>
                Ejercicios del concurso {exercise?.contest.calendar ?? ''}, nivel{' '}
                {exercise?.level.level ?? ''}
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
                <Text color="fg.muted">{MESSAGES.noExercises}</Text>
              ) : (
                <List.Root as="ol" ps="5" gap="1">
                  {current.rows.map((row) => (
                    <List.Item key={row.id}>{row.name}</List.Item>
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
