import { IMPORT_MESSAGES, canUndoImport, type TeamImportRow } from '@concurso/shared';
import type { QuestionView } from '../../stores/feedback-store';
import { formatDateTime } from '../../ui/date-time';

/** One import as the 'Importaciones' table shows it. */
export interface TeamImportTableRow {
  id: number;
  when: string;
  contest: string;
  file: string;
  teams: string;
  by: string;
  state: string;
  /** True when 'Deshacer' is offered (`canUndoImport`). */
  undoable: boolean;
  /** Teams an undo would delete now. */
  remaining: number;
}

/** The state of an import in words: undone (when), blocked by attempts, or still undoable. */
function importState(row: TeamImportRow): string {
  if (row.undone_at) return `Deshecha el ${formatDateTime(row.undone_at)}`;
  if (row.remaining === 0) return 'Sus equipos ya se eliminaron';
  if (row.attempts > 0)
    return `Con ${row.attempts} ${row.attempts === 1 ? 'intento' : 'intentos'}: no se puede deshacer`;
  return 'Se puede deshacer';
}

/** The imports as the table shows them (newest first, as the server answers). */
export function teamImportTableRows(rows: readonly TeamImportRow[]): TeamImportTableRow[] {
  return rows.map((row) => ({
    id: row.id,
    when: formatDateTime(row.created_at),
    contest: row.contest.calendar,
    file: row.file_name,
    teams:
      row.remaining === row.teams || row.undone_at
        ? `${row.teams} (${row.members} integrantes)`
        : `${row.teams} (quedan ${row.remaining})`,
    by: row.user?.name ?? '—',
    state: importState(row),
    undoable: canUndoImport(row),
    remaining: row.remaining,
  }));
}

/** The question before 'Deshacer': what it deletes, from which contest. */
export function undoQuestion(row: Pick<TeamImportTableRow, 'remaining' | 'contest' | 'file'>): QuestionView {
  return {
    title: `¿Deshacer la importación de «${row.file}»?`,
    message: IMPORT_MESSAGES.undoQuestion(row.remaining, row.contest),
    confirmLabel: 'Sí, deshacer',
    cancelLabel: 'Cancelar',
  };
}
