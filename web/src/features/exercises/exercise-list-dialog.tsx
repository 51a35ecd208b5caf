import { List } from '@chakra-ui/react';
import { MESSAGES, exercisesRoutes, type ExerciseRow } from '@concurso/shared';
import { listQuery } from '../../api/queries/list-query';
import { ListDialog } from '../../catalog-screen/list-dialog';

/**
 * The exercises of a contest and level (`exercisesRoutes.combo`) as a query keyed under `exercises`:
 * stale when another admin changes the exercises, a level or a contest (`catalog.changed`).
 */
const exerciseComboQuery = ({ contests_id, levels_id }: ExerciseRow) =>
  listQuery('exercises', exercisesRoutes.combo, {
    params: { contestId: contests_id, levelId: levels_id },
    failure: 'No se pudieron cargar los ejercicios',
  });

/** Props of {@link ExerciseListDialog}. */
export interface ExerciseListDialogProps {
  /** The row whose contest and level are listed; kept while the dialog closes. */
  exercise: ExerciseRow | null;
  open: boolean;
  onClose: () => void;
}

/**
 * 'Ver ejercicios': the names of the exercises of the row's contest and level
 * (`GET /api/exercisesCombo/{contestId}/{levelId}`), or 'No se encontraron ejercicios registrados.'.
 * Refetches while open when another admin changes the exercises.
 */
export function ExerciseListDialog({ exercise, open, onClose }: ExerciseListDialogProps) {
  return (
    <ListDialog
      open={open}
      onClose={onClose}
      testId="exercise-list-dialog"
      title={`Ejercicios del concurso ${exercise?.contest.calendar ?? ''}, nivel ${exercise?.level.level ?? ''}`}
      query={exercise ? exerciseComboQuery(exercise) : null}
      emptyText={MESSAGES.noExercises}
    >
      {(rows) => (
        <List.Root as="ol" ps="5" gap="1">
          {rows.map((row) => (
            <List.Item key={row.id}>{row.name}</List.Item>
          ))}
        </List.Root>
      )}
    </ListDialog>
  );
}
