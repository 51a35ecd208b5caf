import { useMemo } from 'react';
import { Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { USER_TYPES, labReadinessText } from '@concurso/shared';
import { ActiveContestView } from '../../catalog-screen/active-contest-view';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { MessagesButton } from '../../catalog-screen/messages/messages-button';
import { FeedbackHost } from '../../catalog-screen/feedback-host';
import { useSessionStore } from '../../stores/session-store';
import { actionsColumn } from '../../ui/data-table/actions-column';
import { DataTable } from '../../ui/data-table/data-table';
import { RowActions, RowButton } from '../../ui/data-table/row-actions';
import type { DataColumn } from '../../ui/data-table/table-model';
import { PageFrame } from '../../ui/layout/page-frame';
import { LAB_COLUMNS } from './lab-columns';
import { LAB_SCREEN_COLUMN } from './lab-screen-column';
import { LAB_KEY, labQuery } from './lab-query';
import { useRefetchOnBoardChange } from '../../stores/use-refetch-on-board-change';
import { labTableRows, teamsWithoutMachine, type LabTableRow } from './lab-rows';
import { useRemoveMachine } from './use-remove-machine';

/**
 * /laboratorio (judges and admins): before and during the contest, which machines run an
 * agent of the active contest, each with its system, agent version, since when it is heard, whether it
 * applies the team's current policy (green, amber, red) and how far its clock is from the server's;
 * above, 'Listos: N de M equipos' and the teams that never started an agent (a team whose machine went
 * silent or was stopped leads the table in red instead, with how long). Refetched when the boards push
 * an agent's change, and every few seconds (heartbeats move the rest). Each machine shows its own
 * presence and the source address of its last request; an administrator's 'Quitar' (asked first)
 * removes a machine (a made-up name, a machine taken out of the lab) and its alert.
 */
export function LabScene({ title }: CatalogueSceneProps) {
  const lab = useQuery(labQuery());
  // An agent coming online, stopping or falling silent shows at once (the boards push it).
  useRefetchOnBoardChange([LAB_KEY], { throttleMs: 1_000, withAgent: true });
  // Again at every refetch, even an identical one (the same data object): «hace …» moves on.
  const rows = useMemo(
    () => labTableRows(lab.data?.machines ?? [], lab.dataUpdatedAt),
    [lab.data, lab.dataUpdatedAt],
  );
  const missing = useMemo(() => teamsWithoutMachine(lab.data), [lab.data]);
  const admin = useSessionStore((state) => state.user?.types_users_id === USER_TYPES.admin);
  const removeMachine = useRemoveMachine();
  const columns = useMemo((): DataColumn<LabTableRow>[] => {
    if (!admin) return [...LAB_COLUMNS, LAB_SCREEN_COLUMN];
    return [
      ...LAB_COLUMNS,
      LAB_SCREEN_COLUMN,
      actionsColumn((row: LabTableRow) => (
        <RowActions>
          <RowButton label="Quitar" palette="red" onClick={() => void removeMachine(row)} />
        </RowActions>
      )),
    ];
  }, [admin, removeMachine]);

  return (
    <PageFrame title={title} actions={null}>
      <ActiveContestView query={lab} contestTestId="lab-contest">
        {lab.data ? (
          <Text fontWeight="semibold" data-testid="lab-readiness">
            {labReadinessText(lab.data.ready, lab.data.teams)}
          </Text>
        ) : null}
        {lab.data?.contest ? (
          <MessagesButton
            teams={[
              ...new Map(
                [...lab.data.machines.map((m) => m.team), ...lab.data.missing].map((t) => [
                  t.id,
                  { id: t.id, name: t.name },
                ]),
              ).values(),
            ]}
          />
        ) : null}
        {missing.length > 0 ? (
          <Text data-testid="lab-missing">
            Sin agente en marcha: {missing.map((team) => `${team.name} (${team.level})`).join(', ')}
          </Text>
        ) : null}
        <DataTable
          data={rows}
          columns={columns}
          title={title}
          exportName="laboratorio"
          loading={lab.isPending}
        />
      </ActiveContestView>
      <FeedbackHost />
    </PageFrame>
  );
}
