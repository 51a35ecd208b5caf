import { useMemo, type ReactNode } from 'react';
import { Badge, Heading, Stack, Table } from '@chakra-ui/react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { AttemptLogRow, BoardTeam, StatusChangeRow } from '@concurso/shared';
import { useRefetchOnBoardChange } from '../../stores/use-refetch-on-board-change';
import { QueryListBody } from '../../catalog-screen/query-list-body';
import { useOpenListQuery } from '../../catalog-screen/use-open-list-query';
import { AppDialog } from '../../ui/dialog/app-dialog';
import { CaptureThumbnails } from '../../ui/captures/capture-thumbnails';
import { fetchCaptureImage } from '../../api/capture-api';
import { useTeamCaptures } from './use-team-captures';
import { ExportEvidenceButton } from './export-evidence-button';
import { attemptBursts } from './attempt-bursts';
import {
  attemptHistoryLine,
  statusHistoryLine,
  teamAttemptsLogQuery,
  teamStatusLogQuery,
} from './team-history';

/** Props of {@link TeamHistoryDialog}. */
export interface TeamHistoryDialogProps {
  /** The team shown; kept while the dialog closes so its title does not vanish. */
  team: Pick<BoardTeam, 'id' | 'name'> | null;
  open: boolean;
  onClose: () => void;
}

/** A log's body: a spinner until it loads, the error, `empty` when it has no rows, else `children`. */
function LogSection<T>({
  title,
  list,
  empty,
  children,
}: {
  title: string;
  list: UseQueryResult<T[]>;
  empty: string;
  children: (rows: T[]) => ReactNode;
}) {
  return (
    <Stack as="section" gap="2">
      <Heading as="h3" size="sm">
        {title}
      </Heading>
      <QueryListBody list={list} emptyText={empty}>
        {children}
      </QueryListBody>
    </Stack>
  );
}

/** At most one refetch of a team's history every this many ms while its team changes. */
const TEAM_HISTORY_REFRESH_MS = 1_000;

/** The attempts as the dialog shows them, the newest of each burst with its line (attempt-bursts.ts). */
const attemptLines = (rows: AttemptLogRow[]) => {
  const bursts = attemptBursts(rows);
  return rows.map((row) => ({ ...attemptHistoryLine(row), burst: bursts.get(row.id) }));
};
const statusLines = (rows: StatusChangeRow[]) => rows.map(statusHistoryLine);

/**
 * 'Historial' of a board row: the team's attempts (process, time on
 * the machine, time received, terminated Sí / No, the screen captures around it: thumbnails that
 * enlarge on a click) and status changes (from → to, who, when), newest
 * first, from `GET /api/teamAttemptsLog/{id}` and `GET /api/teamStatusLog/{id}`. Fetched when it
 * opens and again, while it is open, whenever the board pushes a change of the team's attempts or
 * status (`useRefetchOnBoardChange` with the team; at most once every `TEAM_HISTORY_REFRESH_MS`).
 */
export function TeamHistoryDialog({ team, open, onClose }: TeamHistoryDialogProps) {
  const teamId = team?.id;
  const queries = useMemo(
    () =>
      teamId === undefined
        ? null
        : { attempts: teamAttemptsLogQuery(teamId), status: teamStatusLogQuery(teamId) },
    [teamId],
  );
  const attempts = useOpenListQuery(queries?.attempts ?? null, open, attemptLines);
  const changes = useOpenListQuery(queries?.status ?? null, open, statusLines);
  const captures = useTeamCaptures(teamId, open, attempts.dataUpdatedAt);
  useRefetchOnBoardChange(queries ? [queries.attempts.queryKey, queries.status.queryKey] : [], {
    throttleMs: TEAM_HISTORY_REFRESH_MS,
    teamId,
    enabled: open && queries !== null,
  });

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      title={`Historial del equipo: ${team?.name ?? ''}`}
      size="xl"
      scrollBehavior="inside"
      testId="team-history-dialog"
      closeLabel="Cerrar"
    >
      <Stack gap="6">
        {teamId !== undefined && <ExportEvidenceButton teamId={teamId} />}
        <LogSection title="Cambios de estatus" list={changes} empty="El equipo no ha cambiado de estatus.">
          {(rows) => (
            <Table.Root size="sm" aria-label="Cambios de estatus" data-testid="team-history-status">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>CAMBIO</Table.ColumnHeader>
                  <Table.ColumnHeader>QUIÉN</Table.ColumnHeader>
                  <Table.ColumnHeader>CUÁNDO</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((row) => (
                  <Table.Row key={row.id} data-testid={`status-change-${row.id}`}>
                    <Table.Cell>{row.change}</Table.Cell>
                    <Table.Cell>
                      {row.automatic ? (
                        <Badge colorPalette="orange" variant="subtle">
                          {row.who}
                        </Badge>
                      ) : (
                        row.who
                      )}
                    </Table.Cell>
                    <Table.Cell fontVariantNumeric="tabular-nums">{row.at}</Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </LogSection>
        <LogSection title="Intentos" list={attempts} empty="El equipo no tiene intentos registrados.">
          {(rows) => (
            <Table.Root size="sm" aria-label="Intentos" data-testid="team-history-attempts">
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>PROCESO</Table.ColumnHeader>
                  <Table.ColumnHeader>EN LA MÁQUINA</Table.ColumnHeader>
                  <Table.ColumnHeader>RECIBIDO</Table.ColumnHeader>
                  <Table.ColumnHeader>TERMINADO</Table.ColumnHeader>
                  <Table.ColumnHeader>CAPTURAS</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((row) => (
                  <Table.Row key={row.id} data-testid={`attempt-${row.id}`}>
                    <Table.Cell>
                      {row.process}
                      {row.burst ? (
                        <Badge ms="2" colorPalette="orange" variant="subtle" data-testid="attempt-burst">
                          {row.burst}
                        </Badge>
                      ) : null}
                    </Table.Cell>
                    <Table.Cell fontVariantNumeric="tabular-nums">{row.occurredAt}</Table.Cell>
                    <Table.Cell fontVariantNumeric="tabular-nums">{row.receivedAt}</Table.Cell>
                    <Table.Cell>{row.killed}</Table.Cell>
                    <Table.Cell>
                      <CaptureThumbnails
                        captures={captures.get(row.id) ?? []}
                        load={fetchCaptureImage}
                        title={`Intento: ${row.process} (${row.occurredAt})`}
                      />
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          )}
        </LogSection>
      </Stack>
    </AppDialog>
  );
}
