import type { ExportData } from './export-data';
import { downloadBlob } from './download-blob';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Writes a real .xlsx (header row in bold, then the rows) and downloads it as `{fileName}.xlsx`.
 * exceljs is loaded only now: it is large and most visits never export.
 */
export async function exportToExcel(data: ExportData, fileName: string, sheetName: string): Promise<void> {
  const module = await import('exceljs');
  // The browser build is a UMD bundle: depending on interop its classes sit on the module or on `default`.
  const ExcelJS = (module as unknown as { default?: typeof module }).default ?? module;
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  // Excel refuses sheet names over 31 characters or with []:*?/\
  const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Datos');
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
  const buffer = await workbook.xlsx.writeBuffer();
  downloadBlob(new Blob([buffer], { type: XLSX_TYPE }), `${fileName}.xlsx`);
}
