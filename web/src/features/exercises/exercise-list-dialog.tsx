import { List } from '@chakra-ui/react';
import { MESSAGES, exercisesRoutes, type ExerciseRow, type RouteReply } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { ListDialog } from '../../catalog-screen/list-dialog';

/** An item of 'Ver ejercicios': the exercise's id and PDF name. */
type ExerciseComboItem = RouteReply<typeof exercisesRoutes.combo>['data'][number];

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
    <ListDialog<ExerciseComboItem>
      open={open}
      onClose={onClose}
      testId="exercise-list-dialog"
      title={`Ejercicios del concurso ${exercise?.contest.calendar ?? ''}, nivel ${exercise?.level.level ?? ''}`}
      listKey={exercise ? `${exercise.contests_id}/${exercise.levels_id}` : null}
      fetchRows={(signal) =>
        callApi(exercisesRoutes.combo, {
          params: { contestId: exercise!.contests_id, levelId: exercise!.levels_id },
          signal,
        })
      }
      follows="exercises"
      emptyText={MESSAGES.noExercises}
      what="los ejercicios"
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
