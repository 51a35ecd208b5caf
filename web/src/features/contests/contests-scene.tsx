import { useCallback, useState } from 'react';
import { Field, Input } from '@chakra-ui/react';
import { useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { calendarOf, contestInputSchema, type ContestRow } from '@concurso/shared';
import { createCatalogRow, updateCatalogRow } from '../../api/catalog-api';
import { AssignProcessesDialog } from './assign-processes-dialog';
import { ContestProcessesDialog } from './contest-processes-dialog';
import { FormTextField } from '../../ui/form/form-text-field';
import { RowButton } from '../../ui/data-table/row-actions';
import { CatalogScene } from '../../catalog-screen/catalog-scene';
import type { DataColumn } from '../../ui/data-table/table-model';
import { useCatalogForm } from '../../catalog-screen/use-catalog-form';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { calendarPreview, todayIsoDate } from './contest-form-values';

const resolver = zodResolver(contestInputSchema);
// The date defaults to today on create (SPEC.md section 9); computed at each opening.
const emptyValues = () => ({ date: todayIsoDate() });
const valuesOf = (row: ContestRow) => ({ date: row.date.slice(0, 10) });
const save = ({ date }: { date: string }, editing: ContestRow | null) => {
  // The client sends the calendar (DESIGN.md section 3); the server would derive the same one.
  const input = { date, calendar: calendarOf(date) };
  return editing ? updateCatalogRow('contests', editing.id, input) : createCatalogRow('contests', input);
};
const TITLES = { create: 'Registrar Concurso', update: 'Editar Concurso' };

/** Which of the contest dialogs is open, for which contest (kept while it closes). */
interface ContestDialogState {
  contest: ContestRow | null;
  open: 'view' | 'assign' | null;
}

const COLUMNS: DataColumn<ContestRow>[] = [
  { accessorKey: 'id', header: 'ID' },
  { accessorKey: 'calendar', header: 'CALENDAR' },
  { accessorKey: 'date', header: 'DATE' },
];
const nameOf = (row: ContestRow) => `${row.calendar} ${row.date}`;

/**
 * /contests: ID, CALENDAR, DATE, ACCIONES ('Ver procesos', 'Asignar procesos', 'Editar', 'Eliminar'),
 * 'Registrar concurso' with the 'Registrar Concurso' / 'Editar Concurso' modal (date, today by default,
 * and its calendar), and the blocked-processes dialogs (SPEC.md section 2).
 */
export function ContestsScene({ title }: CatalogueSceneProps) {
  const dialog = useCatalogForm({
    catalog: 'contests',
    resolver,
    emptyValues,
    valuesOf,
    save,
    titles: TITLES,
  });
  const { errors } = dialog.form.formState;
  const date = useWatch({ control: dialog.form.control, name: 'date' });
  const [processesDialog, setProcessesDialog] = useState<ContestDialogState>({ contest: null, open: null });

  const showProcesses = useCallback(
    (contest: ContestRow) => setProcessesDialog({ contest, open: 'view' }),
    [],
  );
  const assignProcesses = useCallback(
    (contest: ContestRow) => setProcessesDialog({ contest, open: 'assign' }),
    [],
  );
  const closeProcesses = useCallback(() => setProcessesDialog((state) => ({ ...state, open: null })), []);

  const rowButtons = useCallback(
    (row: ContestRow) => (
      <>
        <RowButton label="Ver procesos" palette="teal" onClick={() => showProcesses(row)} />
        <RowButton label="Asignar procesos" onClick={() => assignProcesses(row)} />
      </>
    ),
    [showProcesses, assignProcesses],
  );

  return (
    <CatalogScene
      catalog="contests"
      title={title}
      createLabel="Registrar concurso"
      exportName="concursos"
      dialog={dialog}
      columns={COLUMNS}
      nameOf={nameOf}
      rowButtons={rowButtons}
      fields={
        <>
          <FormTextField
            label="Fecha"
            type="date"
            error={errors.date?.message}
            registration={dialog.form.register('date')}
          />
          <Field.Root readOnly>
            <Field.Label>Calendario</Field.Label>
            <Input value={calendarPreview(date)} readOnly tabIndex={-1} bg="bg.muted" />
            <Field.HelperText>
              Se deriva de la fecha: A de enero a junio, B de julio a diciembre.
            </Field.HelperText>
          </Field.Root>
        </>
      }
    >
      <ContestProcessesDialog
        contest={processesDialog.contest}
        open={processesDialog.open === 'view'}
        onClose={closeProcesses}
      />
      <AssignProcessesDialog
        contest={processesDialog.contest}
        open={processesDialog.open === 'assign'}
        onClose={closeProcesses}
      />
    </CatalogScene>
  );
}
