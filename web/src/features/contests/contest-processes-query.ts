import { contestsRoutes } from '@concurso/shared';
import { listQuery } from '../../api/queries/list-query';

/**
 * A contest's blocked processes (`contestsRoutes.blockedProcesses`) as a query keyed under
 * `contest_processes`: stale when the set or a process's name changes (`catalog.changed`), and after
 * 'Asignar procesos' saves.
 */
export const contestProcessesQuery = (contestId: number) =>
  listQuery('contest_processes', contestsRoutes.blockedProcesses, {
    params: { contestId },
    failure: 'No se pudieron cargar los procesos del concurso',
  });
