import {
  attemptProcessLabel,
  killedLabel,
  statusChangeAuthor,
  statusChangeText,
  type ContestLogRow,
  type TeamRow,
} from '@concurso/shared';
import { toOptions } from '../../catalog-screen/select-options';
import { formatDateTime } from '../../ui/date-time';
import type { SelectOption } from '../../ui/form/form-select-field';

/**
 * The pure rules of /bitacora (issue 13, "History on screen"): the log's rows as the table shows and
 * exports them and the choices of its filters (which pushes make it stale: api/queries/board-changes.ts).
 * Tested in Node.
 */

/** One row of the /bitacora table: every cell already text, as shown, searched and exported. */
export interface ContestLogTableRow {
  /** Stable across refetches: an attempt's id doubled, a status change's doubled plus one. */
  id: number;
  /** The row's place in the server's order (newest first): the highest is the newest. */
  order: number;
  /** FECHA: when the server recorded it, `dd/mm/aaaa hh:mm:ss`. */
  at: string;
  /** TIPO: 'Intento' or 'Cambio de estatus'. */
  kind: string;
  team: string;
  level: string;
  /** PROCESO of an attempt ('chrome.exe, renombrado como notepad.exe' for a renamed copy); empty for a status change. */
  process: string;
  /** TERMINADO of an attempt ('Sí' / 'No'); empty for a status change. */
  killed: string;
  /** EN LA MÁQUINA: the agent's clock of an attempt; empty for a status change. */
  occurredAt: string;
  /** CAMBIO: 'Activo → Descalificado'; empty for an attempt. */
  change: string;
  /** QUIÉN: the judge, 'automático' or 'Usuario eliminado'; empty for an attempt. */
  who: string;
}

/** The table's id of a log row: ids are unique per kind only, so the kind is the id's parity. */
export function contestLogRowId(row: Pick<ContestLogRow, 'kind' | 'id'>): number {
  return row.kind === 'intento' ? row.id * 2 : row.id * 2 + 1;
}

/** The rows of `GET /api/contestLog` (newest first) as the table shows them, in the same order. */
export function contestLogTableRows(rows: readonly ContestLogRow[]): ContestLogTableRow[] {
  return rows.map((row, index) => {
    const attempt = row.kind === 'intento';
    return {
      id: contestLogRowId(row),
      order: rows.length - index,
      at: formatDateTime(row.at),
      kind: attempt ? 'Intento' : 'Cambio de estatus',
      team: row.team.name,
      level: row.level.level,
      process: row.process === null ? '' : attemptProcessLabel(row.process, row.executable),
      killed: row.killed === null ? '' : killedLabel(row.killed),
      occurredAt: formatDateTime(row.occurred_at),
      change: row.from !== null && row.to !== null ? statusChangeText(row.from, row.to) : '',
      who: attempt ? '' : statusChangeAuthor(row),
    };
  });
}

/** The filters of /bitacora; unset ones are undefined (they are left out of the query string). */
export interface ContestLogFilters {
  levels_id?: number;
  teams_id?: number;
  process?: string;
}

/** A select's value as an id filter: '' ('Todos') is no filter. */
export function idFilter(value: string): number | undefined {
  const id = Number(value);
  return value !== '' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

const collator = new Intl.Collator('es', { numeric: true, sensitivity: 'base' });

/**
 * The EQUIPO filter's choices: the teams of contest `contestId` (none without an active contest), of
 * level `levelsId` when one is chosen, by name.
 */
export function teamFilterOptions(
  teams: readonly TeamRow[],
  contestId: number | null,
  levelsId: number | undefined,
): SelectOption[] {
  return toOptions(
    teams.filter(
      (team) => team.contests_id === contestId && (levelsId === undefined || team.levels_id === levelsId),
    ),
    (team) => team.name,
  );
}

/** The PROCESO filter's choices: the process catalogue's names, alphabetical, each its own value. */
export function processFilterOptions(processes: readonly { name: string }[]): SelectOption[] {
  return processes
    .map((process) => process.name)
    .sort(collator.compare)
    .map((name) => ({ value: name, label: name }));
}
