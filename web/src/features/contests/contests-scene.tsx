import { useCallback, useMemo } from 'react';
import { Badge } from '@chakra-ui/react';
import type { ContestRow } from '@concurso/shared';
import { useCatalogRows } from '../../api/queries/catalog-queries';
import { CatalogScreen } from '../../catalog-screen/catalog-screen';
import { catalogScreenSpec, saveJson } from '../../catalog-screen/catalog-screen-spec';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { useRowDialog } from '../../catalog-screen/use-row-dialog';
import { RowButton } from '../../ui/data-table/row-actions';
import { FormCheckboxField } from '../../ui/form/form-checkbox-field';
import { formatDate } from '../../ui/date-time';
import { AllowedSitesDialog } from './allowed-sites-dialog';
import { AllowedSitesField } from './allowed-sites-field';
import { AssignProcessesDialog } from './assign-processes-dialog';
import { CalendarPreview } from './calendar-preview';
import { ContestProcessesDialog } from './contest-processes-dialog';
import { contestDateColumn } from './contest-date-column';
import { contestBody, contestFormResolver, contestValuesOf, emptyContestValues } from './contest-form-values';
import { CopyBlockedFromField } from './copy-blocked-from-field';
import { PERMITTED_SET } from './process-sets';
import { ReportMenu } from './report/report-menu';
import { useActivateContest } from './use-activate-contest';

/** ACTIVO's text: what the search, the sorting and the exports read of the badge. */
const ACTIVE_TEXT = 'Activo';

// The shared contestInputSchema, with «Sitios permitidos» read as its lines.
const CONTESTS = catalogScreenSpec('contests', contestFormResolver, {
  texts: { add: 'Registrar concurso', titles: ['Registrar Concurso', 'Editar Concurso'], file: 'concursos' },
  columns: [
    { accessorKey: 'calendar', header: 'CALENDAR' },
    contestDateColumn(),
    // The one contest boards and agents follow.
    {
      id: 'active',
      accessorFn: (row) => (row.active ? ACTIVE_TEXT : ''),
      header: 'ACTIVO',
      cell: ({ row }) =>
        row.original.active ? (
          <Badge colorPalette="green" variant="solid">
            {ACTIVE_TEXT}
          </Badge>
        ) : null,
    },
    { id: 'max_attempts', accessorFn: (row) => row.max_attempts ?? '', header: 'MÁX. INTENTOS' },
    // Whether its agents report what runs on the machines (/procesosObservados).
    {
      id: 'observe_processes',
      accessorFn: (row) => (row.observe_processes ? 'Sí' : 'No'),
      header: 'REGISTRA PROGRAMAS',
    },
  ],
  nameOf: (row) => `${row.calendar} ${formatDate(row.date)}`,
  // The date defaults to today on create (docs/spec.md section 9); computed at each opening.
  emptyValues: () => emptyContestValues(),
  valuesOf: contestValuesOf,
  // The client sends the calendar (docs/design.md section 3); the server would derive the same one.
  // An edit that did not touch the sites leaves them alone (the sites dialog may have saved meanwhile).
  save: (values, editing) =>
    saveJson('contests', contestBody(values, editing === null, editing?.allowed_sites), editing),
  fields: [
    { name: 'date', label: 'Fecha', type: 'date' },
    (dialog) => <CalendarPreview control={dialog.form.control} />,
    {
      name: 'max_attempts',
      label: 'Descalificar automáticamente al llegar a N intentos',
      type: 'number',
      helperText: 'Déjelo vacío para no descalificar automáticamente.',
    },
    // What ran in the lab: on by default; the agents follow it at their next config.
    ({ form }) => (
      <FormCheckboxField
        label="Registrar los programas que se ejecutan en las máquinas"
        checked={form.watch('observe_processes') !== false}
        onChange={(checked) => form.setValue('observe_processes', checked, { shouldDirty: true })}
      />
    ),
    // A capture of the machine's screen before and after each blocked program is ended (the agents
    // follow it at their next config; «Ver pantalla» works either way).
    ({ form }) => (
      <FormCheckboxField
        label="Capturar la pantalla en cada intento"
        checked={form.watch('capture_screens') !== false}
        onChange={(checked) => form.setValue('capture_screens', checked, { shouldDirty: true })}
      />
    ),
    // One site per line; empty, the contest has no network policy.
    ({ form }) => (
      <AllowedSitesField
        registration={form.register('allowed_sites')}
        error={form.formState.errors.allowed_sites?.message}
        text={form.watch('allowed_sites') ?? ''}
      />
    ),
    // Only a new contest copies a blocked set; an existing one has 'Asignar procesos'.
    ({ form, mode }) =>
      mode === 'create' ? (
        <CopyBlockedFromField
          registration={form.register('copy_from_contests_id')}
          error={form.formState.errors.copy_from_contests_id?.message}
        />
      ) : null,
  ],
});

/**
 * /contests: ID, CALENDAR, DATE, ACTIVO (a badge on the active contest), MÁX. INTENTOS, ACCIONES
 * ('Activar' on every other row, 'Ver procesos', 'Asignar procesos', 'Programas permitidos' (the same dialog
 * on the contest's «Programas permitidos», docs/design.md section 6a), 'Sitios permitidos', 'Editar',
 * 'Eliminar'), 'Registrar concurso' with the 'Registrar Concurso' / 'Editar Concurso' modal (date, today by
 * default, and its calendar; the automatic block's threshold; the allowed sites (docs/design.md section 6a);
 * on create, the contest whose blocked set is copied), the blocked-processes dialogs (docs/spec.md section 2)
 * and the allowed sites' dialog. 'Reporte' (`report/`) downloads the contest's report as a PDF or an XLSX.
 */
export function ContestsScene({ title }: CatalogueSceneProps) {
  const processes = useRowDialog<ContestRow, 'view' | 'assign' | 'permitted' | 'sites'>();
  const { show } = processes;
  const activate = useActivateContest();
  // The same query as the table: the contest active now, named in the activation question.
  const { rows } = useCatalogRows('contests');
  const current = useMemo(() => rows.find((row) => row.active) ?? null, [rows]);
  const rowButtons = useCallback(
    (row: ContestRow) => (
      <>
        {row.active ? null : (
          <RowButton label="Activar" palette="blue" onClick={() => void activate(row, current)} />
        )}
        <RowButton label="Ver procesos" palette="teal" onClick={() => show('view', row)} />
        <RowButton label="Asignar procesos" onClick={() => show('assign', row)} />
        <RowButton label="Programas permitidos" onClick={() => show('permitted', row)} />
        <RowButton label="Sitios permitidos" onClick={() => show('sites', row)} />
        <ReportMenu contest={row} />
      </>
    ),
    [show, activate, current],
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
      <AssignProcessesDialog
        contest={processes.row}
        open={processes.open === 'permitted'}
        onClose={processes.close}
        set={PERMITTED_SET}
      />
      <AllowedSitesDialog
        contest={processes.row}
        open={processes.open === 'sites'}
        onClose={processes.close}
      />
    </CatalogScreen>
  );
}
