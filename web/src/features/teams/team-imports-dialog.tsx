import { useMemo } from 'react';
import { Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { QueryListBody } from '../../catalog-screen/query-list-body';
import { actionsColumn } from '../../ui/data-table/actions-column';
import { DataTable } from '../../ui/data-table/data-table';
import { RowActions, RowButton } from '../../ui/data-table/row-actions';
import type { DataColumn } from '../../ui/data-table/table-model';
import { AppDialog } from '../../ui/dialog/app-dialog';
import { teamImportTableRows, type TeamImportTableRow } from './team-import-rows';
import { teamImportsQuery } from './team-imports-query';
import { useUndoImport } from './use-undo-import';

/** Props of {@link TeamImportsDialog}. */
export interface TeamImportsDialogProps {
  open: boolean;
  onClose: () => void;
}

const COLUMNS: DataColumn<TeamImportTableRow>[] = [
  { accessorKey: 'when', header: 'FECHA' },
  { accessorKey: 'contest', header: 'CONCURSO' },
  { accessorKey: 'file', header: 'ARCHIVO' },
  { accessorKey: 'teams', header: 'EQUIPOS' },
  { accessorKey: 'by', header: 'IMPORTÓ' },
  { accessorKey: 'state', header: 'ESTADO' },
];

/**
 * /teams › 'Importaciones' (400 teams imported into the wrong contest took 400 'Eliminar'
 * clicks): every import, newest first, with its contest, file, teams, who made it and its state, and
 * 'Deshacer' while none of its teams has attempts (asked first; it deletes the teams still there with
 * their members). Live: an import, an undo or a team deleted elsewhere refetches it.
 */
export function TeamImportsDialog({ open, onClose }: TeamImportsDialogProps) {
  const list = useQuery({ ...teamImportsQuery(), enabled: open });
  const undo = useUndoImport();
  // Built once per answer: the table keeps its page and sort while the dialog re-renders.
  const rows = useMemo(() => teamImportTableRows(list.data ?? []), [list.data]);
  const columns = useMemo(
    (): DataColumn<TeamImportTableRow>[] => [
      ...COLUMNS,
      actionsColumn((row: TeamImportTableRow) =>
        row.undoable ? (
          <RowActions>
            <RowButton label="Deshacer" palette="red" onClick={() => void undo(row)} />
          </RowActions>
        ) : null,
      ),
    ],
    [undo],
  );

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title="Importaciones"
      size="xl"
      scrollBehavior="inside"
      testId="team-imports-dialog"
      closeLabel="Cerrar"
    >
      <Stack gap="3">
        <Text fontSize="sm">
          Una importación se puede deshacer mientras ninguno de sus equipos tenga intentos: se eliminan los
          equipos que creó, con sus integrantes.
        </Text>
        <QueryListBody list={list} emptyText="Todavía no hay importaciones.">
          {() => <DataTable data={rows} columns={columns} title="Importaciones" exportName="importaciones" />}
        </QueryListBody>
      </Stack>
    </AppDialog>
  );
}
