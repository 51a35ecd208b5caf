import {
  machinesLabel,
  normaliseExecutableName,
  viaLabel,
  type ContestRow,
  type ObservedProcessRow,
} from '@concurso/shared';
import { formatDateTime } from '../../ui/date-time';

/**
 * The pure rules of /procesosObservados (what ran in the lab, docs/design.md section 6): the inventory's rows
 * as the table shows, searches and exports them, and the question before blocking one. Tested in Node.
 */

/** One row of the /procesosObservados table: every shown cell already text. */
export interface ObservedTableRow {
  /** Stable across refetches: a hash of the row's name and fingerprint (`observedRowId`). */
  id: number;
  /** PROGRAMA: the executable's file name as the machines ran it. */
  name: string;
  /** HUELLA: the first 12 hex digits of its SHA-256 (the whole one in `sha256`), or 'Sin leer'. */
  fingerprint: string;
  /** MÁQUINAS: '2 máquinas'. */
  machines: string;
  /** How many machines, for sorting MÁQUINAS by number. */
  machineCount: number;
  /** EQUIPOS: the teams' names. */
  teams: string;
  /**
   * MÁQUINA Y RUTA: while one team ran it, the machine (host name) and the executable's path of its
   * latest start ('lab-07 · /home/ana/rara'); '' when several teams ran it or the agent did not say.
   */
  where: string;
  /** PRIMERA VEZ / ÚLTIMA VEZ: `dd/mm/aaaa hh:mm:ss`, the agents' clocks. */
  firstSeen: string;
  lastSeen: string;
  /** VECES: starts counted on every machine. */
  count: number;
  /**
   * ESTADO: 'Bloqueado' or 'Bloqueado como chrome.exe'; 'Copia de chrome.exe (huella sin confirmar)'
   * for a copy that only its fingerprint's claimants' machines end; 'Nuevo' for a program no other
   * team ran after the contest's first minutes; empty otherwise.
   */
  state: string;
  /** The data `POST /api/blockObservedProcess` needs. */
  source: ObservedProcessRow;
  /** ISO times, for sorting by time. */
  firstSeenIso: string;
  lastSeenIso: string;
}

/** How many hex digits of a fingerprint the table shows (enough to tell two builds apart at a glance). */
const FINGERPRINT_SHOWN_DIGITS = 12;

/**
 * ESTADO of a row: blocked under its own name, blocked as another (its fingerprint), a copy of a
 * blocked program whose fingerprint is only claimed so far (docs/design.md section 6a: it ends the copy on
 * its claimants' machines only, until an admin confirms it in Procesos › Huellas or enough teams
 * report it), or ''.
 */
export function observedState(
  row: Pick<ObservedProcessRow, 'name' | 'blocked_as' | 'copy_of'> & { is_new?: boolean },
): string {
  if (row.blocked_as === null) {
    if (row.copy_of !== null) return copyState(row.copy_of);
    return row.is_new ? NEW_STATE : '';
  }
  const same = normaliseExecutableName(row.blocked_as) === normaliseExecutableName(row.name);
  return same ? 'Bloqueado' : `Bloqueado como ${row.blocked_as}`;
}

/**
 * Whether an administrator is offered 'Bloquear' for a row: while nothing blocks it on every machine
 * (a copy whose fingerprint is only claimed may still be blocked under its own name).
 */
export const observedBlockable = (row: Pick<ObservedTableRow, 'source'>): boolean =>
  row.source.blocked_as === null;

/**
 * ESTADO of a program no other team ran, first seen after the contest's first minutes
 * (`NEW_PROGRAM_AFTER_MS`; the rule in the observed module's README): an unknown tool to look at.
 */
const NEW_STATE = 'Nuevo';

/** MÁQUINA Y RUTA of a row: its machine and path, either alone when the other is unknown. */
function observedWhere(row: Pick<ObservedProcessRow, 'hostname' | 'path'>): string {
  return [row.hostname, row.path].filter((part) => part !== null && part !== '').join(' · ');
}

/** ESTADO of a copy of blocked program `blocked` whose fingerprint is not confirmed yet. */
const copyState = (blocked: string) => `Copia de ${blocked} (huella sin confirmar)`;

/**
 * A row's table id (the table wants a number; the server's rows have none): FNV-1a of its name and
 * fingerprint, stable across refetches whatever the order. A clash would only share a React key.
 */
export function observedRowId(row: Pick<ObservedProcessRow, 'name' | 'sha256'>): number {
  let hash = 0x811c9dc5;
  for (const char of `${row.name}\u0000${row.sha256 ?? ''}`) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The rows of `GET /api/observedProcesses` (most machines first) as the table shows them, in order. */
export function observedTableRows(rows: readonly ObservedProcessRow[]): ObservedTableRow[] {
  return rows.map((row) => ({
    id: observedRowId(row),
    // «chatgpt.py (vía python3)» for a script an interpreter ran.
    name: viaLabel(row.name, row.via),
    fingerprint: row.sha256 ? row.sha256.slice(0, FINGERPRINT_SHOWN_DIGITS) : 'Sin leer',
    machines: machinesLabel(row.machines),
    machineCount: row.machines,
    teams: row.teams.join(', '),
    where: observedWhere(row),
    firstSeen: formatDateTime(row.first_seen),
    lastSeen: formatDateTime(row.last_seen),
    count: row.count,
    state: observedState(row),
    source: row,
    firstSeenIso: row.first_seen,
    lastSeenIso: row.last_seen,
  }));
}

/**
 * The question before 'Bloquear' (a change the agents apply): what is blocked, where, and, when its
 * fingerprint is known, who reported it and whose machines the fingerprint reaches
 * (docs/design.md section 6a: a fingerprint is a claim of the teams that ran it; it reaches every machine
 * when an administrator confirms it in Procesos › Huellas or enough teams report it).
 */
export function blockQuestion(row: ObservedProcessRow, contest: ContestRow) {
  const teams = row.teams.length > 0 ? row.teams.join(', ') : 'ningún equipo';
  return {
    title: `¿Bloquear ${row.name} en el concurso ${contest.calendar}?`,
    message: row.sha256
      ? `Los agentes lo terminarán en su siguiente actualización (unos 10 segundos) y cada intento contará. ` +
        `Lo reportó: ${teams}. Su huella se aplicará a las máquinas de ${row.teams.length === 1 ? 'ese equipo' : 'esos equipos'}, ` +
        'que también terminarán copias renombradas; a las de todos los equipos, cuando un administrador ' +
        'la confirme en Procesos › Huellas o cuando la reporten varios equipos.'
      : `Los agentes lo terminarán en su siguiente actualización (unos 10 segundos) y cada intento contará. ` +
        `Lo reportó: ${teams}.`,
    confirmLabel: 'Sí, bloquear',
    cancelLabel: 'Cancelar',
  };
}
