import {
  CONTEST_LOG_KINDS,
  DELETED_USER_LABEL,
  agentEventText,
  attemptProcessLabel,
  killedLabel,
  messageLogText,
  networkLogText,
  statusChangeAuthor,
  statusChangeText,
  type ContestLogKind,
  type ContestLogRow,
  type TeamRow,
} from '@concurso/shared';
import { toOptions } from '../../catalog-screen/select-options';
import { formatDateTime } from '../../ui/date-time';
import type { SelectOption } from '../../ui/form/form-select-field';

/**
 * The pure rules of /bitacora (docs/design.md section 4): the log's rows as the table shows and
 * exports them and the choices of its filters (which pushes make it stale: api/queries/board-changes.ts).
 * Tested in Node.
 */

/** One row of the /bitacora table: every cell already text, as shown, searched and exported. */
export interface ContestLogTableRow {
  /** Stable across refetches: `contestLogRowId`. */
  id: number;
  /** The row's place in the server's order (newest first): the highest is the newest. */
  order: number;
  /** FECHA: when the server recorded it, `dd/mm/aaaa hh:mm:ss`. */
  at: string;
  /** TIPO: 'Intento', 'Cambio de estatus', 'Agente', 'Mensaje' or 'Red'. */
  kind: string;
  /** EQUIPO: the team's name; 'Todos' on a network policy row (every team's). */
  team: string;
  /** NIVEL: the team's level; empty on a network policy row. */
  level: string;
  /** PROCESO of an attempt ('chrome.exe, renombrado como notepad.exe' for a renamed copy); empty for a status change. */
  process: string;
  /** TERMINADO of an attempt ('Sí' / 'No'); empty for a status change. */
  killed: string;
  /** EN LA MÁQUINA: the agent's clock of an attempt; empty for a status change. */
  occurredAt: string;
  /**
   * CAMBIO: 'Activo → Descalificado', an agent's event or a message, the allowed sites; empty for an
   * attempt.
   */
  change: string;
  /**
   * QUIÉN: the judge, 'automático' or 'Usuario eliminado' of a status change; who sent a message or
   * changed the allowed sites; empty for an attempt.
   */
  who: string;
  /** An attempt's team and row id (its screen captures, the CAPTURAS column); null for other rows. */
  attempt: { teamId: number; attemptId: number } | null;
}

/** The table's id of a log row: ids are unique per kind only, so the kind is the id's residue mod 6. */
export function contestLogRowId(row: Pick<ContestLogRow, 'kind' | 'id'>): number {
  return row.id * 6 + KIND_RESIDUE[row.kind];
}

const KIND_RESIDUE: Record<ContestLogRow['kind'], number> = {
  intento: 0,
  estatus: 1,
  agente: 2,
  mensaje: 3,
  red: 4,
  pantalla: 5,
};

/** TIPO of each kind of row. */
const KIND_LABEL: Record<ContestLogRow['kind'], string> = {
  intento: 'Intento',
  estatus: 'Cambio de estatus',
  agente: 'Agente',
  pantalla: 'Ver pantalla',
  mensaje: 'Mensaje',
  red: 'Red',
};

/** EQUIPO of a network policy row: the contest's policy applies to every team. */
const EVERY_TEAM = 'Todos';

/**
 * CAMBIO of a row: a status change's 'Activo → Descalificado', an agent's event or a message, the
 * allowed sites set, else ''.
 */
function changeText(row: ContestLogRow): string {
  if (row.kind === 'pantalla')
    return row.hostname ? `Pantalla de ${row.hostname}` : 'Pantalla de sus máquinas';
  if (row.kind === 'red') return networkLogText(row.network_version ?? 0, row.allowed_sites ?? []);
  if (row.kind === 'mensaje' && row.message !== null && row.message_receipts !== null)
    return messageLogText(row.message_target ?? '', row.message, row.message_receipts);
  if (row.agent_event !== null)
    return agentEventText(
      row.agent_event,
      row.last_seen ? formatDateTime(row.last_seen) : null,
      row.silence_ms,
      row.hostname,
    );
  return row.from !== null && row.to !== null ? statusChangeText(row.from, row.to) : '';
}

/** QUIÉN of a row: a status change's author, the sender of a message or a network change, else ''. */
function whoText(row: ContestLogRow): string {
  if (row.kind === 'estatus') return statusChangeAuthor(row);
  if (row.kind === 'pantalla') return row.user ?? DELETED_USER_LABEL;
  return row.kind === 'mensaje' || row.kind === 'red' ? (row.user ?? '') : '';
}

/** The rows of `GET /api/contestLog` (newest first) as the table shows them, in the same order. */
export function contestLogTableRows(rows: readonly ContestLogRow[]): ContestLogTableRow[] {
  return rows.map((row, index) => {
    return {
      id: contestLogRowId(row),
      order: rows.length - index,
      at: formatDateTime(row.at),
      kind: KIND_LABEL[row.kind],
      // A network row has no team or level: its policy is every team's; so is a message's
      // to every team (one row per message, its receipts folded in).
      team:
        row.team?.name ?? (row.kind === 'red' || (row.kind === 'mensaje' && !row.level) ? EVERY_TEAM : ''),
      level: row.level?.level ?? '',
      process: row.process === null ? '' : attemptProcessLabel(row.process, row.executable, row.via),
      killed: row.killed === null ? '' : killedLabel(row.killed),
      occurredAt: formatDateTime(row.occurred_at),
      change: changeText(row),
      who: whoText(row),
      attempt: row.kind === 'intento' && row.team ? { teamId: row.team.id, attemptId: row.id } : null,
    };
  });
}

/** The filters of /bitacora; unset ones are undefined (they are left out of the query string). */
export interface ContestLogFilters {
  levels_id?: number;
  teams_id?: number;
  process?: string;
  kind?: ContestLogKind;
}

/** The «Tipo» filter's choices (docs/design.md section 4, the log): one kind of row each. */
export const KIND_FILTER_OPTIONS: readonly SelectOption[] = [
  { value: 'intento', label: 'Intentos' },
  { value: 'estatus', label: 'Estatus' },
  { value: 'agente', label: 'Agentes' },
  { value: 'mensaje', label: 'Mensajes' },
  { value: 'red', label: 'Red' },
  { value: 'pantalla', label: 'Pantallas' },
];

/** A «Tipo» select's value as the kind filter: '' ('Todos') or anything else is no filter. */
export function kindFilter(value: string): ContestLogKind | undefined {
  return (CONTEST_LOG_KINDS as readonly string[]).includes(value) ? (value as ContestLogKind) : undefined;
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
