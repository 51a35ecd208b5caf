import { useEffect, useRef, type ReactNode } from 'react';
import { Badge, Heading, Stack, Table } from '@chakra-ui/react';
import { skipToken, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import type { BoardTeam } from '@concurso/shared';
import { QueryListBody } from '../../catalog-screen/query-list-body';
import { useBoardStore } from '../../stores/board-store';
import { AppDialog } from '../../ui/dialog/app-dialog';
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

/**
 * Refetches the team's two logs whenever the board store's row of `teamId` changes version while
 * `open` (a pushed frame: an attempt, a block, an unblock). The version the dialog opened with is only
 * remembered: opening fetches by itself.
 */
function useRefetchOnTeamChange(teamId: number | null, open: boolean) {
  const client = useQueryClient();
  const version = useBoardStore((state) => (teamId === null ? undefined : state.teams[teamId]?.version));
  const seen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!open || teamId === null) {
      seen.current = undefined;
      return;
    }
    if (seen.current !== undefined && version !== seen.current) {
      for (const query of [teamAttemptsLogQuery(teamId), teamStatusLogQuery(teamId)])
        void client.invalidateQueries({ queryKey: query.queryKey, exact: true });
    }
    seen.current = version;
  }, [client, open, teamId, version]);
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

const NOTHING = ['nada'];

/**
 * 'Historial' of a board row (issue 13, "History on screen"): the team's attempts (process, time on
 * the machine, time received, terminated Sí / No) and status changes (from → to, who, when), newest
 * first, from `GET /api/teamAttemptsLog/{id}` and `GET /api/teamStatusLog/{id}`. Fetched when it
 * opens and again whenever a pushed frame changes the team's row while it is open.
 */
export function TeamHistoryDialog({ team, open, onClose }: TeamHistoryDialogProps) {
  const attemptsQuery = team ? teamAttemptsLogQuery(team.id) : null;
  const statusQuery = team ? teamStatusLogQuery(team.id) : null;
  const attempts = useQuery({
    queryKey: attemptsQuery?.queryKey ?? NOTHING,
    queryFn: open && attemptsQuery ? attemptsQuery.queryFn : skipToken,
    meta: attemptsQuery?.meta,
    select: (rows) => rows.map(attemptHistoryLine),
  });
  const changes = useQuery({
    queryKey: statusQuery?.queryKey ?? NOTHING,
    queryFn: open && statusQuery ? statusQuery.queryFn : skipToken,
    meta: statusQuery?.meta,
    select: (rows) => rows.map(statusHistoryLine),
  });
  useRefetchOnTeamChange(team?.id ?? null, open);

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
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {rows.map((row) => (
                  <Table.Row key={row.id} data-testid={`attempt-${row.id}`}>
                    <Table.Cell>{row.process}</Table.Cell>
                    <Table.Cell fontVariantNumeric="tabular-nums">{row.occurredAt}</Table.Cell>
                    <Table.Cell fontVariantNumeric="tabular-nums">{row.receivedAt}</Table.Cell>
                    <Table.Cell>{row.killed}</Table.Cell>
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
