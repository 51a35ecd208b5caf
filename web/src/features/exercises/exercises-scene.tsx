import { useCallback, useMemo, useState } from 'react';
import { Text } from '@chakra-ui/react';
import type { ExerciseRow } from '@concurso/shared';
import { saveExercise, type ExerciseUpload } from '../../api/exercise-api';
import { ExerciseListDialog } from './exercise-list-dialog';
import { FormFileField } from '../../ui/form/form-file-field';
import { FormSelectField } from '../../ui/form/form-select-field';
import { RowButton } from '../../ui/data-table/row-actions';
import { CatalogScene } from '../../catalog-screen/catalog-scene';
import type { DataColumn } from '../../ui/data-table/table-model';
import { useCatalogForm } from '../../catalog-screen/use-catalog-form';
import { useCatalogList } from '../../api/catalog-cache/use-catalog-list';
import { useOpenExercisePdf } from './use-open-exercise-pdf';
import type { ProgressHandle } from '../../stores/feedback-store';
import { levelOptions } from '../../catalog-screen/select-options';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { emptyExerciseValues, exerciseFormResolver, exerciseValuesOf } from './exercise-form';

/**
 * Uploads the PDF with its progress on the 'Procesando…' dialog, whose 'Cancelar' aborts it. A new
 * exercise joins the current contest (the server picks it).
 */
const save = (upload: ExerciseUpload, editing: ExerciseRow | null, progress: ProgressHandle) => {
  const controller = new AbortController();
  progress.cancellable(() => controller.abort());
  return saveExercise(
    { ...upload, id: editing?.id },
    { signal: controller.signal, onProgress: progress.report },
  );
};
const TITLES = { create: 'Registrar ejercicios', update: 'Actualizar ejercicio' };

/** Which list dialog is open, for which row (kept while it closes). */
interface ListDialogState {
  exercise: ExerciseRow | null;
  open: boolean;
}

const COLUMNS: DataColumn<ExerciseRow>[] = [
  { accessorKey: 'id', header: 'ID' },
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
];
const nameOf = (row: ExerciseRow) => row.original_name;

/**
 * /exercises: 'Información de los ejercicios por concurso'; ID, RUTA (the PDF's name, the stored file as
 * its tooltip), NIVEL, CONCURSO, ACCIONES ('Ver ejercicios', 'Ver PDF', 'Editar', 'Eliminar');
 * 'Registrar ejercicios' with the 'Registrar ejercicios' / 'Actualizar ejercicio' modal (the PDF, whose
 * upload shows its progress, and the level) (SPEC.md section 2).
 */
export function ExercisesScene({ title }: CatalogueSceneProps) {
  const levels = useCatalogList('levels');
  const openPdf = useOpenExercisePdf();
  const dialog = useCatalogForm({
    catalog: 'exercises',
    resolver: exerciseFormResolver,
    emptyValues: emptyExerciseValues,
    valuesOf: exerciseValuesOf,
    save,
    titles: TITLES,
  });
  const { editing } = dialog;
  const { errors } = dialog.form.formState;
  const levelChoices = useMemo(() => levelOptions(levels.rows), [levels.rows]);
  const [listDialog, setListDialog] = useState<ListDialogState>({ exercise: null, open: false });

  const showList = useCallback((exercise: ExerciseRow) => setListDialog({ exercise, open: true }), []);
  const closeList = useCallback(() => setListDialog((state) => ({ ...state, open: false })), []);

  const rowButtons = useCallback(
    (row: ExerciseRow) => (
      <>
        <RowButton label="Ver ejercicios" palette="teal" onClick={() => showList(row)} />
        <RowButton label="Ver PDF" onClick={() => void openPdf(row.id)} />
      </>
    ),
    [showList, openPdf],
  );

  return (
    <CatalogScene
      catalog="exercises"
      title={title}
      createLabel="Registrar ejercicios"
      exportName="ejercicios"
      dialog={dialog}
      columns={COLUMNS}
      nameOf={nameOf}
      rowButtons={rowButtons}
      fields={
        <>
          <FormFileField
            label="Archivo PDF"
            accept="application/pdf"
            control={dialog.form.control}
            name="file"
            error={errors.file?.message}
            helperText={
              editing ? `Déjelo vacío para conservar el PDF actual (${editing.original_name}).` : undefined
            }
          />
          <FormSelectField
            label="Nivel"
            placeholder="Seleccione el nivel..."
            options={levelChoices}
            error={errors.levels_id?.message}
            registration={dialog.form.register('levels_id')}
          />
        </>
      }
    >
      <ExerciseListDialog exercise={listDialog.exercise} open={listDialog.open} onClose={closeList} />
    </CatalogScene>
  );
}
