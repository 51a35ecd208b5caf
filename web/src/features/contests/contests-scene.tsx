import { useCallback } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { calendarOf, contestInputSchema, type ContestRow } from '@concurso/shared';
import { CatalogScreen } from '../../catalog-screen/catalog-screen';
import { catalogScreenSpec, saveJson } from '../../catalog-screen/catalog-screen-spec';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { useRowDialog } from '../../catalog-screen/use-row-dialog';
import { RowButton } from '../../ui/data-table/row-actions';
import { AssignProcessesDialog } from './assign-processes-dialog';
import { CalendarPreview } from './calendar-preview';
import { ContestProcessesDialog } from './contest-processes-dialog';
import { todayIsoDate } from './contest-form-values';

const CONTESTS = catalogScreenSpec('contests', zodResolver(contestInputSchema), {
  texts: { add: 'Registrar concurso', titles: ['Registrar Concurso', 'Editar Concurso'], file: 'concursos' },
  columns: [
    { accessorKey: 'calendar', header: 'CALENDAR' },
    { accessorKey: 'date', header: 'DATE' },
  ],
  nameOf: (row) => `${row.calendar} ${row.date}`,
  // The date defaults to today on create (SPEC.md section 9); computed at each opening.
  emptyValues: () => ({ date: todayIsoDate() }),
  valuesOf: (row) => ({ date: row.date.slice(0, 10) }),
  // The client sends the calendar (DESIGN.md section 3); the server would derive the same one.
  save: ({ date }, editing) => saveJson('contests', { date, calendar: calendarOf(date) }, editing),
  fields: [
    { name: 'date', label: 'Fecha', type: 'date' },
    (dialog) => <CalendarPreview control={dialog.form.control} />,
  ],
});

/**
 * /contests: ID, CALENDAR, DATE, ACCIONES ('Ver procesos', 'Asignar procesos', 'Editar', 'Eliminar'),
 * 'Registrar concurso' with the 'Registrar Concurso' / 'Editar Concurso' modal (date, today by default,
 * and its calendar), and the blocked-processes dialogs (SPEC.md section 2).
 */
export function ContestsScene({ title }: CatalogueSceneProps) {
  const processes = useRowDialog<ContestRow, 'view' | 'assign'>();
  const { show } = processes;
  const rowButtons = useCallback(
    (row: ContestRow) => (
      <>
        <RowButton label="Ver procesos" palette="teal" onClick={() => show('view', row)} />
        <RowButton label="Asignar procesos" onClick={() => show('assign', row)} />
      </>
    ),
    [show],
  );

  return (
    <CatalogScreen spec={CONTESTS} title={title} rowButtons={rowButtons}>
      <ContestProcessesDialog
        contest={processes.row}
        open={processes.open === 'view'}
        onClose={processes.close}
      />
      <AssignProcessesDialog
        contest={processes.row}
        open={processes.open === 'assign'}
        onClose={processes.close}
      />
    </CatalogScreen>
  );
}
