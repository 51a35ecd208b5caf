/**
 * The pure rules of the 'Importar' dialog (bulk import of teams and members): which files it
 * sends, what its table and its list of bad rows show, and when 'Importar N equipos' may be pressed.
 */
import {
  IMPORT_MAX_BYTES,
  IMPORT_MESSAGES,
  importErrorSchema,
  type ImportError,
  type ImportPreview,
} from '@concurso/shared';
import { isApiRequestError } from '../../api/api-error';

/** The file types the picker offers: the two the server reads. */
export const IMPORT_ACCEPT =
  '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Why `file` would be refused before it is sent (the server checks the same and the content): not a
 * `.csv` or `.xlsx` by name, or over `IMPORT_MAX_BYTES`. Null when it may go.
 */
export function importFileProblem(file: Pick<File, 'name' | 'size'>): string | null {
  if (!/\.(csv|xlsx)$/i.test(file.name)) return IMPORT_MESSAGES.notSpreadsheet;
  if (file.size > IMPORT_MAX_BYTES) return IMPORT_MESSAGES.tooLarge;
  return null;
}

/** One bad row as the dialog lists it: 'Línea 7: Nivel desconocido «Experto»'. */
export function importErrorText(error: ImportError): string {
  return `Línea ${error.line}: ${error.message}`;
}

/**
 * The import button: 'Importar 12 equipos' ('Importar 1 equipo') when the preview allows it, else just
 * 'Importar' (a disabled 'Importar 2 equipos' beside the errors promised what it would not do).
 */
export function importButtonText(preview: ImportPreview | null): string {
  if (!canImport(preview)) return 'Importar';
  const teams = preview!.teams.length;
  return `Importar ${teams} ${teams === 1 ? 'equipo' : 'equipos'}`;
}

/** The preview's note on how a CSV was read: asks to check the accents of a Windows-1252 file. */
export function importEncodingNote(preview: ImportPreview | null): string | null {
  return preview?.encoding === 'windows-1252' ? IMPORT_MESSAGES.readAsWindows1252 : null;
}

/** True when the preview allows the import: at least one team and no bad row. */
export function canImport(preview: ImportPreview | null): boolean {
  return preview !== null && preview.errors.length === 0 && preview.teams.length > 0;
}

/** One row of the preview's table: a team that will be created and how many members it brings. */
export interface ImportSummaryRow {
  name: string;
  level: string;
  coach: string;
  members: number;
  /** The members' names as read from the file, so the admin sees its accents. */
  names: string;
}

/** The preview's teams as its table shows them (file order). */
export function importSummaryRows(preview: ImportPreview): ImportSummaryRow[] {
  return preview.teams.map((team) => ({
    name: team.name,
    level: team.level,
    coach: team.coach,
    members: team.members.length,
    names: team.members.map((member) => member.name).join(', '),
  }));
}

/**
 * The bad rows of a refused import (422 of `importTeams` with `errors` by line: the file changed, or
 * another admin registered a team or code since the preview), or null for any other failure.
 */
export function rejectedImportErrors(error: unknown): ImportError[] | null {
  if (!isApiRequestError(error) || error.status !== 422) return null;
  const errors = (error.body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return null;
  const rows = errors.map((row) => importErrorSchema.safeParse(row));
  return rows.every((row) => row.success) ? rows.map((row) => row.data!) : null;
}
