import { useCallback, useMemo, useState } from 'react';
import { Button, Text } from '@chakra-ui/react';
import type { ExerciseRow } from '@concurso/shared';
import { saveExercise, type ExerciseUpload } from '../api/exercise-api';
import { CatalogFormDialog } from '../components/catalog/catalog-form-dialog';
import { CatalogPage } from '../components/catalog/catalog-page';
import { ExerciseListDialog } from '../components/catalog/exercise-list-dialog';
import { FormFileField } from '../components/catalog/form-file-field';
import { FormSelectField } from '../components/catalog/form-select-field';
import { EditDeleteButtons, RowActions, RowButton } from '../components/catalog/row-actions';
import { actionsColumn } from '../components/data-table/actions-column';
import { DataTable } from '../components/data-table/data-table';
import type { DataColumn } from '../components/data-table/table-model';
import { useCatalogDelete } from '../hooks/use-catalog-delete';
import { useCatalogForm } from '../hooks/use-catalog-form';
import { useCatalogList } from '../hooks/use-catalog-list';
import { useOpenExercisePdf } from '../hooks/use-open-exercise-pdf';
import type { ProgressHandle } from '../stores/feedback-store';
import { levelOptions } from './catalog-labels';
import type { CatalogueSceneProps } from './catalogue-scene-props';
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

/**
 * /exercises: 'Información de los ejercicios por concurso'; ID, RUTA (the PDF's name, the stored file as
 * its tooltip), NIVEL, CONCURSO, ACCIONES ('Ver ejercicios', 'Ver PDF', 'Editar', 'Eliminar');
 * 'Registrar ejercicios' with the 'Registrar ejercicios' / 'Actualizar ejercicio' modal (the PDF, whose
 * upload shows its progress, and the level) (SPEC.md section 2).
 */
export function ExercisesScene({ title }: CatalogueSceneProps) {
  const list = useCatalogList('exercises');
  const levels = useCatalogList('levels');
  const remove = useCatalogDelete('exercises');
  const openPdf = useOpenExercisePdf();
  const dialog = useCatalogForm({
    catalog: 'exercises',
    resolver: exerciseFormResolver,
    emptyValues: emptyExerciseValues,
    valuesOf: exerciseValuesOf,
    save,
    titles: TITLES,
  });
  const { openEdit, editing } = dialog;
  const { errors } = dialog.form.formState;
  const levelChoices = useMemo(() => levelOptions(levels.rows), [levels.rows]);
  const [listDialog, setListDialog] = useState<ListDialogState>({ exercise: null, open: false });

  const showList = useCallback((exercise: ExerciseRow) => setListDialog({ exercise, open: true }), []);
  const closeList = useCallback(() => setListDialog((state) => ({ ...state, open: false })), []);

  const columns = useMemo<DataColumn<ExerciseRow>[]>(
    () => [
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
      actionsColumn((row) => (
        <RowActions>
          <RowButton label="Ver ejercicios" palette="teal" onClick={() => showList(row)} />
          <RowButton label="Ver PDF" onClick={() => void openPdf(row.id)} />
          <EditDeleteButtons
            onEdit={() => openEdit(row)}
            onDelete={() => void remove(row.id, row.original_name)}
          />
        </RowActions>
      )),
    ],
    [openEdit, remove, showList, openPdf],
  );

  return (
    <CatalogPage
      title={title}
      actions={
        <Button colorPalette="blue" onClick={dialog.openCreate}>
          Registrar ejercicios
        </Button>
      }
    >
      <DataTable
        data={list.rows}
        columns={columns}
        title={title}
        exportName="ejercicios"
        loading={!list.loaded}
      />
      <CatalogFormDialog controls={dialog}>
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
      </CatalogFormDialog>
      <ExerciseListDialog exercise={listDialog.exercise} open={listDialog.open} onClose={closeList} />
    </CatalogPage>
  );
}
