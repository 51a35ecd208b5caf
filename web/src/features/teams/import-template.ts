import { IMPORT_COLUMNS } from '@concurso/shared';
import { exportToExcel } from '../../ui/data-table/export-excel';

/** The template's file name, without extension. */
export const IMPORT_TEMPLATE_NAME = 'plantilla-equipos';

/** The template's header row: the columns of a registration file, in order (Equipo … Carrera). */
export function importTemplateHeaders(): string[] {
  return IMPORT_COLUMNS.map((column) => column.header);
}

/**
 * 'Descargar plantilla' (issue 13): an .xlsx with exactly the registration file's headers and no rows,
 * written in the browser with exceljs like the tables' exports (loaded only now).
 */
export function downloadImportTemplate(): Promise<void> {
  return exportToExcel({ headers: importTemplateHeaders(), rows: [] }, IMPORT_TEMPLATE_NAME, 'Equipos');
}
