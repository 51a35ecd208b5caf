import { useMemo } from 'react';
import { Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { labReadinessText } from '@concurso/shared';
import { ActiveContestView } from '../../catalog-screen/active-contest-view';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { MessagesButton } from '../../catalog-screen/messages/messages-button';
import { DataTable } from '../../ui/data-table/data-table';
import { PageFrame } from '../../ui/layout/page-frame';
import { LAB_COLUMNS } from './lab-columns';
import { LAB_KEY, labQuery } from './lab-query';
import { useRefetchOnBoardChange } from '../../stores/use-refetch-on-board-change';
import { labTableRows } from './lab-rows';

/**
 * /laboratorio (judges and admins, issue 24): before and during the contest, which machines run an
 * agent of the active contest, each with its system, agent version, since when it is heard, whether it
 * applies the team's current policy (green, amber, red) and how far its clock is from the server's;
 * above, 'Listos: N de M equipos' and the teams without a running agent. Refetched when the boards push
 * an agent's change, and every few seconds (heartbeats move the rest).
 */
export function LabScene({ title }: CatalogueSceneProps) {
  const lab = useQuery(labQuery());
  // An agent coming online, stopping or falling silent shows at once (the boards push it).
  useRefetchOnBoardChange([LAB_KEY], { throttleMs: 1_000, withAgent: true });
  const rows = useMemo(() => labTableRows(lab.data?.machines ?? []), [lab.data]);
  const missing = lab.data?.missing ?? [];

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
          columns={LAB_COLUMNS}
          title={title}
          exportName="laboratorio"
          loading={lab.isPending}
        />
      </ActiveContestView>
    </PageFrame>
  );
}
