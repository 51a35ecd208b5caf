import type { ContestReport } from '@concurso/shared';
import { reportSheets, reportTitle } from './report-tables';

/**
 * The report as an .xlsx (issue 13): one sheet per table of `reportSheets` (Resumen, Equipos,
 * Descalificaciones, Intentos por minuto, Procesos), header row in bold and frozen, columns sized to
 * their text; numbers stay numbers. exceljs is loaded only now (it is large; most visits never
 * download a report). Answers the file's bytes.
 */
export async function buildReportXlsx(report: ContestReport): Promise<ArrayBuffer> {
  const module = await import('exceljs');
  // The browser build is a UMD bundle: depending on interop its classes sit on the module or on `default`.
  const ExcelJS = (module as unknown as { default?: typeof module }).default ?? module;
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  workbook.title = reportTitle(report);
  for (const { name, data } of reportSheets(report)) {
    const sheet = workbook.addWorksheet(name);
    sheet.addRow(data.headers).font = { bold: true };
    for (const row of data.rows) sheet.addRow(row);
    sheet.columns.forEach((column, index) => {
      const longest = Math.max(
        data.headers[index]?.length ?? 0,
        ...data.rows.map((row) => String(row[index] ?? '').length),
      );
      column.width = Math.min(60, Math.max(8, longest + 2));
    });
    sheet.views = [{ state: 'frozen', ySplit: 1 }];
  }
  return (await workbook.xlsx.writeBuffer()) as ArrayBuffer;
}
