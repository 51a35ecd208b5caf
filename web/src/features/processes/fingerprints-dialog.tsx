import { useMemo } from 'react';
import { Alert, Badge, Heading, Spinner, Stack, Text, chakra } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { MESSAGES, type ProcessRow } from '@concurso/shared';
import { describeListError } from '../../api/queries/list-errors';
import { actionsColumn } from '../../ui/data-table/actions-column';
import { DataTable } from '../../ui/data-table/data-table';
import { RowActions, RowButton } from '../../ui/data-table/row-actions';
import type { DataColumn } from '../../ui/data-table/table-model';
import { AppDialog } from '../../ui/dialog/app-dialog';
import {
  deniedTableRows,
  fingerprintTableRows,
  fingerprintsIntro,
  type DeniedTableRow,
  type FingerprintTableRow,
} from './fingerprint-rows';
import { fingerprintsQuery } from './fingerprints-query';
import { useFingerprintActions } from './use-fingerprint-actions';

/** Props of {@link FingerprintsDialog}. */
export interface FingerprintsDialogProps {
  /** The process whose fingerprints are listed (kept while the dialog closes). */
  process: ProcessRow | null;
  open: boolean;
  onClose: () => void;
}

const COLUMNS: DataColumn<FingerprintTableRow>[] = [
  { accessorKey: 'state', header: 'ESTADO' },
  {
    accessorKey: 'fingerprint',
    header: 'HUELLA (SHA-256)',
    // The whole hash on hover; the column (and the exports) show its start.
    cell: ({ row }) => (
      <chakra.span fontFamily="mono" title={row.original.sha256}>
        {row.original.fingerprint}…
      </chakra.span>
    ),
  },
  { accessorKey: 'appliesTo', header: 'SE APLICA A' },
  { accessorKey: 'teams', header: 'EQUIPOS' },
  { accessorKey: 'claimants', header: 'REPORTADA POR' },
  // docs/design.md section 6a: a claim matching a permitted program, and the same teams claiming together.
  {
    id: 'alerts',
    accessorFn: (row) => row.alerts.join('; '),
    header: 'ALERTAS',
    cell: ({ row }) => (
      <Stack gap="1" align="flex-start">
        {row.original.alerts.map((alert) => (
          <Badge
            key={alert}
            colorPalette={alert.startsWith('Sospechosa') ? 'red' : 'orange'}
            whiteSpace="normal"
          >
            {alert}
          </Badge>
        ))}
      </Stack>
    ),
  },
  { accessorKey: 'firstReport', header: 'PRIMER REPORTE' },
  { accessorKey: 'lastReport', header: 'ÚLTIMO REPORTE' },
];

const DENIED_COLUMNS: DataColumn<DeniedTableRow>[] = [
  { accessorKey: 'state', header: 'ESTADO' },
  {
    accessorKey: 'fingerprint',
    header: 'HUELLA (SHA-256)',
    cell: ({ row }) => (
      <chakra.span fontFamily="mono" title={row.original.sha256}>
        {row.original.fingerprint}…
      </chakra.span>
    ),
  },
  { accessorKey: 'process', header: 'ELIMINADA DE' },
  { accessorKey: 'denied', header: 'ELIMINADA POR' },
];

/**
 * Procesos › 'Huellas' (docs/design.md section 6a "Fingerprints", admins): every fingerprint
 * reported for one process in the active contest, with its state, whose machines it reaches, how many
 * teams reported it and which (the first and last with their time), its alerts («Sospechosa…»,
 * «Reclamada repetidamente…»), and 'Confirmar' (it then applies to every machine; not offered for a
 * suspect one, which never applies) and 'Eliminar' (no machine uses it and its hash is denied), each
 * asked first; under it the contest's denied hashes («Denegada», 'Confirmar' lifts one). Refetched
 * while open.
 */
export function FingerprintsDialog({ process, open, onClose }: FingerprintsDialogProps) {
  const list = useQuery({ ...fingerprintsQuery(process?.id ?? 0), enabled: open && process !== null });
  const contest = list.data?.contest ?? null;
  const { onConfirm, onDelete, onConfirmDenied } = useFingerprintActions(process?.name ?? '', contest);
  const rows = useMemo(() => fingerprintTableRows(list.data?.rows ?? []), [list.data]);
  const denied = useMemo(() => deniedTableRows(list.data?.denied ?? []), [list.data]);
  const deniedColumns = useMemo(
    (): DataColumn<DeniedTableRow>[] => [
      ...DENIED_COLUMNS,
      actionsColumn((row: DeniedTableRow) => (
        <RowActions>
          <RowButton label="Confirmar" palette="blue" onClick={() => void onConfirmDenied(row)} />
        </RowActions>
      )),
    ],
    [onConfirmDenied],
  );
  const columns = useMemo(
    (): DataColumn<FingerprintTableRow>[] => [
      ...COLUMNS,
      actionsColumn((row: FingerprintTableRow) => (
        <RowActions>
          {row.confirmed || row.suspect ? null : (
            <RowButton label="Confirmar" palette="blue" onClick={() => void onConfirm(row)} />
          )}
          <RowButton label="Eliminar" palette="red" onClick={() => void onDelete(row)} />
        </RowActions>
      )),
    ],
    [onConfirm, onDelete],
  );

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={`Huellas de ${process?.name ?? ''}`}
      size="xl"
      scrollBehavior="inside"
      testId="fingerprints-dialog"
      closeLabel="Cerrar"
    >
      {list.isError ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{describeListError(list.error).message}</Alert.Title>
        </Alert.Root>
      ) : !list.data ? (
        <Spinner size="sm" aria-label="Cargando…" />
      ) : contest === null ? (
        <Text color="fg.muted">{MESSAGES.noActiveContest}</Text>
      ) : (
        <Stack gap="3">
          <Text fontSize="sm">{fingerprintsIntro(list.data)}</Text>
          <Text fontSize="sm" color="fg.muted" data-testid="fingerprints-contest">
            Concurso activo: {contest.calendar}
          </Text>
          {rows.length === 0 ? (
            <Text color="fg.muted">Este proceso no tiene huellas reportadas en el concurso activo.</Text>
          ) : (
            <DataTable
              data={rows}
              columns={columns}
              title={`Huellas de ${process?.name ?? ''}`}
              exportName="huellas"
            />
          )}
          {denied.length === 0 ? null : (
            <Stack gap="2" data-testid="denied-fingerprints">
              <Heading size="sm">Huellas denegadas en el concurso</Heading>
              <Text fontSize="sm" color="fg.muted">
                Un administrador las eliminó: no se aplican con ningún nombre hasta que las confirme de nuevo.
              </Text>
              <DataTable
                data={denied}
                columns={deniedColumns}
                title="Huellas denegadas"
                exportName="huellas-denegadas"
              />
            </Stack>
          )}
        </Stack>
      )}
    </AppDialog>
  );
}
