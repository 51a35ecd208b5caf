import type {
  ContestRow,
  DeniedFingerprintRow,
  ProcessFingerprintRow,
  ProcessFingerprints,
} from '@concurso/shared';
import { formatDateTime } from '../../ui/date-time';

/**
 * The pure rules of Procesos › Huellas (docs/design.md section 6a "Fingerprints"): a blocked
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
  /** REPORTADA POR: every team that claimed it, 'Alfa, Beta, Gamma', or '—'. */
  claimants: string;
  /**
   * ALERTAS: «Sospechosa: coincide con un programa permitido (code.exe)» and «Reclamada repetidamente
   * por los mismos equipos (Alfa, Beta)», when they hold (docs/design.md section 6a).
   */
  alerts: string[];
  confirmed: boolean;
  /** Whether it matches a permitted program (it applies to no machine, so 'Confirmar' is not offered). */
  suspect: boolean;
}

/** The suspect alert: the claim matches a permitted program's known file, so no machine applies it. */
const suspectAlert = (program: string) => `Sospechosa: coincide con un programa permitido (${program})`;

/** The alert of claims made by the same teams over and over. */
const repeatedAlert = (teams: readonly string[]) =>
  `Reclamada repetidamente por los mismos equipos (${teams.join(', ')})`;

/** How many hex digits of a fingerprint the table shows. */
const FINGERPRINT_DIGITS = 16;

/** The sentence above the table: what a fingerprint is and when a change reaches the machines. */
export function fingerprintsIntro(list: Pick<ProcessFingerprints, 'process' | 'quorum'>): string {
  return (
    `Cada huella (SHA-256) es el contenido de un archivo que un agente terminó como ${list.process.name}: ` +
    'con ella los agentes terminan también sus copias renombradas. Una huella reportada se aplica solo ' +
    `a las máquinas de los equipos que la reportaron, hasta que la confirme o la reporten ${list.quorum} ` +
    'equipos distintos. Confirmar o eliminar una huella llega a los agentes con su siguiente actualización. ' +
    'Una huella eliminada queda denegada en el concurso, con cualquier nombre, hasta que la confirme de ' +
    'nuevo; una que coincide con un programa permitido nunca se aplica.'
  );
}

/** A claimant as one cell: its team's name and when, or '—' (no team: a 'Bloquear' or an old one). */
function claimant(team: ProcessFingerprintRow['first_team']): string {
  return team ? `${team.name}, ${formatDateTime(team.at)}` : '—';
}

/** Whose machines a fingerprint reaches, in words. */
export function appliesTo(
  row: Pick<ProcessFingerprintRow, 'applies_to_all' | 'teams'> & { suspect?: string | null },
): string {
  if (row.suspect) return 'Ninguna máquina';
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
    state: row.suspect ? 'Sospechosa' : row.confirmed ? 'Confirmada' : 'Sin confirmar',
    appliesTo: appliesTo(row),
    teams: row.teams,
    firstReport: claimant(row.first_team),
    lastReport: claimant(row.last_team),
    claimants: row.claimants.length > 0 ? row.claimants.map((team) => team.name).join(', ') : '—',
    alerts: [
      ...(row.suspect ? [suspectAlert(row.suspect)] : []),
      ...(row.repeated_by.length >= 2 ? [repeatedAlert(row.repeated_by)] : []),
    ],
    confirmed: row.confirmed,
    suspect: row.suspect !== null,
  }));
}

/** One row of the denied hashes' table («Denegada»): every shown cell already text. */
export interface DeniedTableRow {
  /** The denial's id (`confirmDeniedFingerprint`). */
  id: number;
  fingerprint: string;
  sha256: string;
  /** ESTADO: 'Denegada'. */
  state: string;
  /** ELIMINADA DE: the process it was removed from, or '—' once deleted. */
  process: string;
  /** ELIMINADA POR: 'Admin Uno, 24/11/2026 10:02:03', or the time alone. */
  denied: string;
}

/** The contest's denied hashes as their table shows them (newest first, as the server sends them). */
export function deniedTableRows(rows: readonly DeniedFingerprintRow[]): DeniedTableRow[] {
  return rows.map((row) => ({
    id: row.id,
    fingerprint: row.sha256.slice(0, FINGERPRINT_DIGITS),
    sha256: row.sha256,
    state: 'Denegada',
    process: row.process?.name ?? '—',
    denied: row.denied_by
      ? `${row.denied_by}, ${formatDateTime(row.denied_at)}`
      : formatDateTime(row.denied_at),
  }));
}

/** The question before 'Confirmar' of a denied hash: it applies to every machine again. */
export function confirmDeniedQuestion(row: DeniedTableRow, contest: ContestRow) {
  return {
    title: `¿Confirmar de nuevo la huella ${row.fingerprint}…?`,
    message:
      `Deja de estar denegada y todas las máquinas del concurso ${contest.calendar} terminarán cualquier ` +
      `programa con esta huella como ${row.process === '—' ? 'el proceso del que se eliminó' : row.process}. ` +
      'Confírmela solo si sabe que es ese programa.',
    confirmLabel: 'Sí, confirmar',
    cancelLabel: 'Cancelar',
  };
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
      'Ninguna máquina la usará desde su siguiente actualización, y quedará denegada en el concurso con ' +
      'cualquier nombre: si los agentes vuelven a reportarla no se aplicará hasta que la confirme de nuevo.',
    confirmLabel: 'Sí, eliminar',
    cancelLabel: 'Cancelar',
  };
}
