import { membersRoutes } from '@concurso/shared';
import { listQuery } from '../../api/queries/list-query';

/**
 * A team's members (`membersRoutes.list`) as a query keyed under `members`: stale when another admin
 * changes them, or a career's name (`catalog.changed`), and after 'Registrar integrantes' or 'Quitar'.
 */
export const teamMembersQuery = (teamId: number) =>
  listQuery('members', membersRoutes.list, {
    params: { teamId },
    failure: 'No se pudieron cargar los integrantes del equipo',
  });
