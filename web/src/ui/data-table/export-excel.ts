import type { ExportData } from './export-data';
import { downloadBlob } from './download-blob';
import { guardFormula } from './formula-guard';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** One sheet of a workbook: its name (Excel's rules are applied) and its header row and rows. */
export interface WorkbookSheet {
  name: string;
  data: ExportData;
}

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\ (else 'Datos'). */
const sheetName = (name: string) => name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Datos';

/**
 * Writes a real .xlsx with one sheet per entry of `sheets` (header row in bold and frozen, then the
 * rows; numbers stay numbers, texts that would start a formula get a leading ' (`guardFormula`,
 * against CSV injection); columns sized to their text, 8 to 60 characters) and answers its bytes.
 * `title` goes into the file's properties. exceljs is loaded only now: it is large and most visits
 * never export.
 */
export async function writeWorkbook(sheets: readonly WorkbookSheet[], title?: string): Promise<ArrayBuffer> {
  const module = await import('exceljs');
  // The browser build is a UMD bundle: depending on interop its classes sit on the module or on `default`.
  const ExcelJS = (module as unknown as { default?: typeof module }).default ?? module;
  const workbook = new ExcelJS.Workbook();
  workbook.created = new Date();
  if (title) workbook.title = title;
  for (const { name, data } of sheets) {
    const sheet = workbook.addWorksheet(sheetName(name));
    sheet.addRow(data.headers).font = { bold: true };
    // A text that would start a formula is written with a leading ' (`guardFormula`: CSV injection).
    for (const row of data.rows) sheet.addRow(row.map(guardFormula));
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

/** Downloads the `bytes` of an .xlsx as `fileName` (with its extension). */
export function downloadXlsx(bytes: ArrayBuffer, fileName: string): void {
  downloadBlob(new Blob([bytes], { type: XLSX_TYPE }), fileName);
}

/** Writes one table as a one-sheet .xlsx (`writeWorkbook`) and downloads it as `{fileName}.xlsx`. */
export async function exportToExcel(data: ExportData, fileName: string, sheetName: string): Promise<void> {
  downloadXlsx(await writeWorkbook([{ name: sheetName, data }]), `${fileName}.xlsx`);
}
