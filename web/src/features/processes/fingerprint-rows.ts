import type { ContestRow, ProcessFingerprintRow, ProcessFingerprints } from '@concurso/shared';
import { formatDateTime } from '../../ui/date-time';

/**
 * The pure rules of Procesos › Huellas (issue 21, DESIGN.md section 6a "Fingerprints"): a blocked
 * process's fingerprints as the table shows them and the questions before confirming or removing one.
 * Tested in Node.
 */

/** One row of the fingerprints table: every shown cell already text. */
export interface FingerprintTableRow {
  /** The fingerprint's id (`confirmFingerprint` / `deleteFingerprint`). */
  id: number;
  /** HUELLA: the first 16 hex digits (the whole one in `sha256`, shown on hover and copied). */
  fingerprint: string;
  sha256: string;
  /** ESTADO: 'Confirmada' or 'Sin confirmar'. */
  state: string;
  /** SE APLICA A: 'Todas las máquinas' or whose machines. */
  appliesTo: string;
  /** EQUIPOS: how many teams reported it. */
  teams: number;
  /** PRIMER REPORTE / ÚLTIMO REPORTE: 'Los Lambdas, 24/11/2026 10:02:03', or '—'. */
  firstReport: string;
  lastReport: string;
  confirmed: boolean;
}

/** How many hex digits of a fingerprint the table shows. */
export const FINGERPRINT_DIGITS = 16;

/** The sentence above the table: what a fingerprint is and when a change reaches the machines. */
export function fingerprintsIntro(list: Pick<ProcessFingerprints, 'process' | 'quorum'>): string {
  return (
    `Cada huella (SHA-256) es el contenido de un archivo que un agente terminó como ${list.process.name}: ` +
    'con ella los agentes terminan también sus copias renombradas. Una huella reportada se aplica solo ' +
    `a las máquinas de los equipos que la reportaron, hasta que la confirme o la reporten ${list.quorum} ` +
    'equipos distintos. Confirmar o eliminar una huella llega a los agentes con su siguiente actualización.'
  );
}

/** A claimant as one cell: its team's name and when, or '—' (no team: a 'Bloquear' or an old one). */
function claimant(team: ProcessFingerprintRow['first_team']): string {
  return team ? `${team.name}, ${formatDateTime(team.at)}` : '—';
}

/** Whose machines a fingerprint reaches, in words. */
export function appliesTo(row: Pick<ProcessFingerprintRow, 'applies_to_all' | 'teams'>): string {
  if (row.applies_to_all) return 'Todas las máquinas';
  if (row.teams === 0) return 'Ninguna máquina';
  return row.teams === 1
    ? 'Solo las del equipo que la reportó'
    : `Solo las de los ${row.teams} equipos que la reportaron`;
}

/** The answer's rows (confirmed first, then most teams, then the newest) as the table shows them. */
export function fingerprintTableRows(rows: readonly ProcessFingerprintRow[]): FingerprintTableRow[] {
  return rows.map((row) => ({
    id: row.id,
    fingerprint: row.sha256.slice(0, FINGERPRINT_DIGITS),
    sha256: row.sha256,
    state: row.confirmed ? 'Confirmada' : 'Sin confirmar',
    appliesTo: appliesTo(row),
    teams: row.teams,
    firstReport: claimant(row.first_team),
    lastReport: claimant(row.last_team),
    confirmed: row.confirmed,
  }));
}

/** The question before 'Confirmar': every machine of the contest will end that file. */
export function confirmQuestion(row: FingerprintTableRow, processName: string, contest: ContestRow) {
  return {
    title: `¿Confirmar la huella ${row.fingerprint}… de ${processName}?`,
    message:
      `Todas las máquinas del concurso ${contest.calendar} terminarán cualquier programa con esta huella, ` +
      'se llame como se llame. Confírmela solo si sabe que es ese programa.',
    confirmLabel: 'Sí, confirmar',
    cancelLabel: 'Cancelar',
  };
}

/** The question before 'Eliminar': no machine will use it, until a team reports it again. */
export function deleteQuestion(row: FingerprintTableRow, processName: string) {
  return {
    title: `¿Eliminar la huella ${row.fingerprint}… de ${processName}?`,
    message:
      'Ninguna máquina la usará desde su siguiente actualización. Si un agente vuelve a reportarla, ' +
      'regresará sin confirmar.',
    confirmLabel: 'Sí, eliminar',
    cancelLabel: 'Cancelar',
  };
}
