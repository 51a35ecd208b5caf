import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CONTEST_LOG_LIMIT } from '@concurso/shared';
import { useCatalogRows } from '../../api/queries/catalog-queries';
import { useRefetchOnBoardChange } from '../../stores/use-refetch-on-board-change';
import { ActiveContestView } from '../../catalog-screen/active-contest-view';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { FeedbackHost } from '../../catalog-screen/feedback-host';
import { useLevelOptions } from '../../catalog-screen/use-catalog-options';
import { DataTable } from '../../ui/data-table/data-table';
import { Notice } from '../../ui/layout/notice';
import { PageFrame } from '../../ui/layout/page-frame';
import { ChainVerify } from './chain-verify';
import { CONTEST_LOG_COLUMNS } from './contest-log-columns';
import { CAPTURES_COLUMN } from './contest-log-captures';
import { ContestLogFiltersBar, type ContestLogFilterValues } from './contest-log-filters';
import { CONTEST_LOG_KEY, CONTEST_LOG_REFRESH_MS, contestLogQuery } from './contest-log-query';
import {
  KIND_FILTER_OPTIONS,
  contestLogTableRows,
  idFilter,
  kindFilter,
  processFilterOptions,
  teamFilterOptions,
  type ContestLogFilters,
} from './contest-log-rows';

const NO_FILTERS: ContestLogFilterValues = { level: '', team: '', process: '', kind: '' };
/** Every /bitacora query, whatever its filters: what a board push makes stale. */
const LOG_KEYS = [[CONTEST_LOG_KEY]];

/** The log's columns and, last, CAPTURAS (an attempt's screen captures). */
const LOG_COLUMNS = [...CONTEST_LOG_COLUMNS, CAPTURES_COLUMN];

/**
 * /bitacora (judges and admins): every attempt and status change of the
 * active contest, newest first, filtered by kind, level, team and process on the server
 * (`GET /api/contestLog`), in the data table with its exports (file name 'bitacora'). Refetched while
 * boards push (`useRefetchOnBoardChange`: a change of attempts or status, a removal, another contest; at
 * most once every `CONTEST_LOG_REFRESH_MS`); without an active contest it says `MESSAGES.noActiveContest`.
 * «Verificar la cadena» (`ChainVerify`) checks the contest's chained log.
 */

export function ContestLogScene({ title }: CatalogueSceneProps) {
  const [values, setValues] = useState<ContestLogFilterValues>(NO_FILTERS);
  const filters = useMemo(
    (): ContestLogFilters => ({
      levels_id: idFilter(values.level),
      teams_id: idFilter(values.team),
      process: values.process === '' ? undefined : values.process,
      kind: kindFilter(values.kind),
    }),
    [values],
  );
  // Another filter's rows stay on screen until the new ones arrive (no flash of an empty table).
  const log = useQuery({ ...contestLogQuery(filters), placeholderData: keepPreviousData });
  // An agent falling silent, stopping or coming back is in the log too.
  useRefetchOnBoardChange(LOG_KEYS, { throttleMs: CONTEST_LOG_REFRESH_MS, withAgent: true });

  const levelOptions = useLevelOptions();
  const teams = useCatalogRows('teams');
  const processes = useCatalogRows('processes');
  const contestId = log.data?.contest?.id ?? null;
  const teamOptions = useMemo(
    () => teamFilterOptions(teams.rows, contestId, filters.levels_id),
    [teams.rows, contestId, filters.levels_id],
  );
  const processOptions = useMemo(() => processFilterOptions(processes.rows), [processes.rows]);
  const rows = useMemo(() => contestLogTableRows(log.data?.rows ?? []), [log.data]);

  return (
    <PageFrame title={title} actions={null}>
      <ActiveContestView query={log} contestTestId="contest-log-contest">
        <ContestLogFiltersBar
          values={values}
          onChange={setValues}
          levels={levelOptions}
          teams={teamOptions}
          processes={processOptions}
          kinds={KIND_FILTER_OPTIONS}
        />
        <ChainVerify contestId={contestId} />
        {log.data?.truncated ? (
          <Notice status="warning">
            Se muestran los {CONTEST_LOG_LIMIT.toLocaleString('es-MX')} registros más recientes; use los
            filtros para ver otros.
          </Notice>
        ) : null}
        <DataTable
          data={rows}
          columns={LOG_COLUMNS}
          title={title}
          exportName="bitacora"
          loading={log.isPending}
        />
      </ActiveContestView>
      <FeedbackHost />
    </PageFrame>
  );
}
