import type { ContestReport } from '@concurso/shared';
import { writeWorkbook } from '../../../ui/data-table/export-excel';
import { reportSheets, reportTitle } from './report-tables';

/**
 * The report as an .xlsx: one sheet per table of `reportSheets` (Resumen, Equipos,
 * Descalificaciones, Intentos por minuto, Procesos), written like every table export
 * (`writeWorkbook`: header row in bold and frozen, numbers stay numbers). Answers the file's bytes.
 */
export function buildReportXlsx(report: ContestReport): Promise<ArrayBuffer> {
  return writeWorkbook(reportSheets(report), reportTitle(report));
}
