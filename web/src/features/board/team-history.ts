import {
  attemptProcessLabel,
  killedLabel,
  logsRoutes,
  statusChangeAuthor,
  statusChangeText,
  type AttemptLogRow,
  type StatusChangeRow,
} from '@concurso/shared';
import { listQuery } from '../../api/queries/list-query';
import { formatDateTime } from '../../ui/date-time';

/**
 * The board's 'Historial' of one team: its two logs as queries and
 * their rows as the dialog shows them. Pure but for the query objects; tested in Node.
 */

/**
 * A team's attempts log (`GET /api/teamAttemptsLog/{teamId}`) as a query keyed under `teams` (a
 * team's deletion, `catalog.changed teams`, makes it stale too).
 */
export const teamAttemptsLogQuery = (teamId: number) =>
  listQuery('teams', logsRoutes.attempts, {
    params: { teamId },
    failure: 'No se pudieron cargar los intentos del equipo',
  });

/** A team's status log (`GET /api/teamStatusLog/{teamId}`) as a query keyed under `teams`. */
export const teamStatusLogQuery = (teamId: number) =>
  listQuery('teams', logsRoutes.statusChanges, {
    params: { teamId },
    failure: 'No se pudieron cargar los cambios de estatus del equipo',
  });

/** One attempt as the dialog shows it: PROCESO, EN LA MÁQUINA, RECIBIDO, TERMINADO. */
export interface AttemptHistoryLine {
  id: number;
  /** The blocked process, and the name a renamed copy ran as ('chrome.exe, renombrado como notepad.exe'). */
  process: string;
  /** The agent's clock (`occurred_at`), `dd/mm/aaaa hh:mm:ss`. */
  occurredAt: string;
  /** The server's clock (`received_at`), `dd/mm/aaaa hh:mm:ss`. */
  receivedAt: string;
  /** 'Sí' when the agent ended the process, else 'No'. */
  killed: 'Sí' | 'No';
}

/** An attempts log row as the dialog shows it. */
export function attemptHistoryLine(row: AttemptLogRow): AttemptHistoryLine {
  return {
    id: row.id,
    process: attemptProcessLabel(row.process, row.executable, row.via),
    occurredAt: formatDateTime(row.occurred_at),
    receivedAt: formatDateTime(row.received_at),
    killed: killedLabel(row.killed),
  };
}

/** One status change as the dialog shows it: CAMBIO, QUIÉN, CUÁNDO. */
export interface StatusHistoryLine {
  id: number;
  /** 'Activo → Descalificado'. */
  change: string;
  /** The judge's name, 'automático' or 'Usuario eliminado' (`statusChangeAuthor`). */
  who: string;
  /** `dd/mm/aaaa hh:mm:ss`. */
  at: string;
  automatic: boolean;
}

/** A status log row as the dialog shows it. */
export function statusHistoryLine(row: StatusChangeRow): StatusHistoryLine {
  return {
    id: row.id,
    change: statusChangeText(row.from.status, row.to.status),
    who: statusChangeAuthor({ user: row.user?.name ?? null, automatic: row.automatic }),
    at: formatDateTime(row.at),
    automatic: row.automatic,
  };
}
