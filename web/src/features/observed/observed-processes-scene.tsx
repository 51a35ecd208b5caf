import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { OBSERVED_PAGE_SIZES, OBSERVED_SORTS, USER_TYPES, type ObservedSort } from '@concurso/shared';
import { ActiveContestView } from '../../catalog-screen/active-contest-view';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { FeedbackHost } from '../../catalog-screen/feedback-host';
import { useSessionStore } from '../../stores/session-store';
import { actionsColumn } from '../../ui/data-table/actions-column';
import { ServerDataTable } from '../../ui/data-table/server-data-table';
import type { ServerTableState } from '../../ui/data-table/server-table-model';
import { RowActions, RowButton } from '../../ui/data-table/row-actions';
import type { DataColumn } from '../../ui/data-table/table-model';
import { PageFrame } from '../../ui/layout/page-frame';
import { OBSERVED_COLUMNS } from './observed-columns';
import { observedQuery, type ObservedPageParams } from './observed-query';
import { observedBlockable, observedTableRows, type ObservedTableRow } from './observed-rows';
import { useBlockObserved } from './use-block-observed';

/**
 * /procesosObservados (judges and admins; docs/design.md section 6, what ran in the lab): every executable
 * the agents saw start on the teams' machines in the active contest, one row per file name and fingerprint
 * with on how many machines, which teams (a machine is never named by more), first and last seen and how many
 * starts, refetched every few seconds. An administrator's 'Bloquear' adds one to the active contest's blocked
 * set with its fingerprint (the agents end it, renamed or not, from their next config); judges read only
 * (docs/design.md section 5: the blocked set is the administrators'). The list (docs/design.md section 6a:
 * screens that page on the server) pages, sorts and searches on the server (`ServerDataTable`), most machines
 * first.
 */
export function ObservedProcessesScene({ title }: CatalogueSceneProps) {
  const [table, setTable] = useState<ServerTableState>(INITIAL_STATE);
  const observed = useQuery(observedQuery(pageParams(table)));
  const admin = useSessionStore((state) => state.user?.types_users_id === USER_TYPES.admin);
  const block = useBlockObserved();
  const contest = observed.data?.contest ?? null;
  const rows = useMemo(() => observedTableRows(observed.data?.rows ?? []), [observed.data]);
  const columns = useMemo((): DataColumn<ObservedTableRow>[] => {
    if (!admin || contest === null) return OBSERVED_COLUMNS;
    return [
      ...OBSERVED_COLUMNS,
      actionsColumn((row: ObservedTableRow) =>
        observedBlockable(row) ? (
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
        <ServerDataTable
          rows={rows}
          total={observed.data?.total ?? 0}
          columns={columns}
          state={table}
          onStateChange={setTable}
          pageSizes={OBSERVED_PAGE_SIZES}
          title={title}
          exportName="procesos-observados"
          loading={observed.isPending}
        />
      </ActiveContestView>
      <FeedbackHost />
    </PageFrame>
  );
}

/** The screen opens on the first page, most machines first, no search. */
const INITIAL_STATE: ServerTableState = {
  pageIndex: 0,
  pageSize: OBSERVED_PAGE_SIZES[0],
  sorting: [{ id: 'machines', desc: true }],
  search: '',
};

/** The table's state as `GET /api/observedProcesses` asks it. */
function pageParams(state: ServerTableState): ObservedPageParams {
  const [sorted] = state.sorting;
  const sort = (OBSERVED_SORTS as readonly string[]).includes(sorted?.id ?? '')
    ? (sorted!.id as ObservedSort)
    : 'machines';
  return {
    page: state.pageIndex,
    page_size: state.pageSize,
    sort,
    dir: sorted?.desc === false ? 'asc' : 'desc',
    q: state.search.trim(),
  };
}
