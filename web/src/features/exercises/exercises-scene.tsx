import { useCallback } from 'react';
import { Text } from '@chakra-ui/react';
import type { ExerciseRow } from '@concurso/shared';
import { saveExercise, type ExerciseUpload } from '../../api/exercise-api';
import { CatalogScreen } from '../../catalog-screen/catalog-screen';
import { catalogScreenSpec } from '../../catalog-screen/catalog-screen-spec';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { useLevelOptions } from '../../catalog-screen/use-catalog-options';
import { useContestOptions } from '../../catalog-screen/use-contest-options';
import { useRowDialog } from '../../catalog-screen/use-row-dialog';
import type { ProgressHandle } from '../../stores/feedback-store';
import { RowButton } from '../../ui/data-table/row-actions';
import { FormFileField } from '../../ui/form/form-file-field';
import { ExerciseListDialog } from './exercise-list-dialog';
import { emptyExerciseValues, exerciseFormResolver, exerciseValuesOf } from './exercise-form';
import { useOpenExercisePdf } from './use-open-exercise-pdf';

/**
 * Uploads the PDF with its progress on the 'Procesando…' dialog, whose 'Cancelar' aborts it. The
 * exercise goes to the contest chosen in 'Concurso' (a new one starts in the active contest).
 */
const save = (upload: ExerciseUpload, editing: ExerciseRow | null, progress: ProgressHandle) => {
  const controller = new AbortController();
  progress.cancellable(() => controller.abort());
  return saveExercise(
    { ...upload, id: editing?.id },
    { signal: controller.signal, onProgress: progress.report },
  );
};

const EXERCISES = catalogScreenSpec('exercises', exerciseFormResolver, {
  texts: {
    add: 'Registrar ejercicios',
    titles: ['Registrar ejercicios', 'Actualizar ejercicio'],
    file: 'ejercicios',
  },
  columns: [
    {
      id: 'path',
      accessorFn: (row) => row.original_name,
      header: 'RUTA',
      cell: ({ row }) => (
        <Text as="span" title={row.original.path}>
          {row.original.original_name}
        </Text>
      ),
    },
    { id: 'level', accessorFn: (row) => row.level?.level ?? '', header: 'NIVEL' },
    { id: 'contest', accessorFn: (row) => row.contest?.calendar ?? '', header: 'CONCURSO' },
  ],
  nameOf: (row) => row.original_name,
  emptyValues: emptyExerciseValues,
  valuesOf: exerciseValuesOf,
  save,
  fields: [
    ({ form, editing }) => (
      <FormFileField
        label="Archivo PDF"
        accept="application/pdf"
        control={form.control}
        name="file"
        error={form.formState.errors.file?.message}
        helperText={
          editing ? `Déjelo vacío para conservar el PDF actual (${editing.original_name}).` : undefined
        }
      />
    ),
    { kind: 'select', name: 'levels_id', label: 'Nivel', placeholder: 'Seleccione el nivel...' },
    { kind: 'select', name: 'contests_id', label: 'Concurso', placeholder: 'Seleccione el concurso...' },
  ],
});

/**
 * /exercises: 'Información de los ejercicios por concurso'; ID, RUTA (the PDF's name, the stored file as
 * its tooltip), NIVEL, CONCURSO, ACCIONES ('Ver ejercicios', 'Ver PDF', 'Editar', 'Eliminar');
 * 'Registrar ejercicios' with the 'Registrar ejercicios' / 'Actualizar ejercicio' modal (the PDF, whose
 * upload shows its progress, the level and the contest, the active one by default) (docs/spec.md section 2;
 * the contest: docs/design.md section 3).
 */
export function ExercisesScene({ title }: CatalogueSceneProps) {
  const levels = useLevelOptions();
  const contests = useContestOptions();
  const openPdf = useOpenExercisePdf();
  const list = useRowDialog<ExerciseRow, 'list'>();
  const { show } = list;
  const rowButtons = useCallback(
    (row: ExerciseRow) => (
      <>
        <RowButton label="Ver ejercicios" palette="teal" onClick={() => show('list', row)} />
        <RowButton label="Ver PDF" onClick={() => void openPdf(row.id)} />
      </>
    ),
    [show, openPdf],
  );

  return (
    <CatalogScreen
      spec={EXERCISES}
      title={title}
      options={{ levels_id: levels, contests_id: contests.options }}
      createValues={contests.createValues}
      rowButtons={rowButtons}
    >
      <ExerciseListDialog exercise={list.row} open={list.open === 'list'} onClose={list.close} />
    </CatalogScreen>
  );
}
