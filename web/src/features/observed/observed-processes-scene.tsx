import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { USER_TYPES } from '@concurso/shared';
import { ActiveContestView } from '../../catalog-screen/active-contest-view';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { FeedbackHost } from '../../catalog-screen/feedback-host';
import { useSessionStore } from '../../stores/session-store';
import { actionsColumn } from '../../ui/data-table/actions-column';
import { DataTable } from '../../ui/data-table/data-table';
import { RowActions, RowButton } from '../../ui/data-table/row-actions';
import type { DataColumn } from '../../ui/data-table/table-model';
import { PageFrame } from '../../ui/layout/page-frame';
import { OBSERVED_COLUMNS } from './observed-columns';
import { observedQuery } from './observed-query';
import { observedTableRows, type ObservedTableRow } from './observed-rows';
import { useBlockObserved } from './use-block-observed';

/**
 * /procesosObservados (judges and admins, issue 14 "What ran in the lab"): every executable the agents
 * saw start on the teams' machines in the active contest, one row per file name and fingerprint with
 * on how many machines, which teams (a machine is never named by more), first and last seen and how
 * many starts, refetched every few seconds. An administrator's 'Bloquear' adds one to the active
 * contest's blocked set with its fingerprint (the agents end it, renamed or not, from their next
 * config); judges read only (DESIGN.md section 5: the blocked set is the administrators').
 */
export function ObservedProcessesScene({ title }: CatalogueSceneProps) {
  const observed = useQuery(observedQuery());
  const admin = useSessionStore((state) => state.user?.types_users_id === USER_TYPES.admin);
  const block = useBlockObserved();
  const contest = observed.data?.contest ?? null;
  const rows = useMemo(() => observedTableRows(observed.data?.rows ?? []), [observed.data]);
  const columns = useMemo((): DataColumn<ObservedTableRow>[] => {
    if (!admin || contest === null) return OBSERVED_COLUMNS;
    return [
      ...OBSERVED_COLUMNS,
      actionsColumn((row: ObservedTableRow) =>
        row.state === '' ? (
          <RowActions>
            <RowButton label="Bloquear" palette="red" onClick={() => void block(row.source, contest)} />
          </RowActions>
        ) : null,
      ),
    ];
  }, [admin, contest, block]);

  return (
    <PageFrame title={title} actions={null}>
      <ActiveContestView
        query={observed}
        contestTestId="observed-contest"
        note={
          contest && !contest.observe_processes
            ? 'El registro de programas está desactivado para este concurso.'
            : undefined
        }
      >
        <DataTable
          data={rows}
          columns={columns}
          title={title}
          exportName="procesos-observados"
          loading={observed.isPending}
        />
      </ActiveContestView>
      <FeedbackHost />
    </PageFrame>
  );
}
