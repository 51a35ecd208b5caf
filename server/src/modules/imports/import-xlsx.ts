import ExcelJS from 'exceljs';
import { IMPORT_MAX_SHEET_ROWS, IMPORT_MESSAGES } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import type { SheetRowCollector } from './import-rows.js';
import { openXlsxZip, workbookStream } from './import-zip.js';

/** The text of an XLSX cell as shown (a number as its digits, a formula as its result, rich text joined). */
function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value;
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return cell.text ?? '';
}

/** The texts of a row's cells, from the first column to its last cell. */
function cellTexts(row: ExcelJS.Row): string[] {
  const cells: string[] = [];
  for (let column = 1; column <= row.cellCount; column++) cells.push(cellText(row.getCell(column)));
  return cells;
}

/**
 * Reads the rows of an XLSX's first worksheet into `collector` as they inflate (docs/design.md section 6a
 * "Uploads"): the zip's central directory is bounded first ({@link openXlsxZip}), then exceljs's streaming
 * reader goes through the sheet row by row and stops as soon as the collector has its answer (the
 * 5,001st member row) or after `IMPORT_MAX_SHEET_ROWS` rows, blank ones included (too many rows at
 * that row). A row's line is its row number; the rest of the file is never inflated.
 * @throws HttpError 413 (entries or declared size beyond the bounds), 415 (`badXlsx`: not a zip, no
 *   workbook, an entry larger than it declares, XML exceljs cannot read).
 */
export async function readXlsxRows(bytes: Buffer, collector: SheetRowCollector): Promise<void> {
  const source = workbookStream(await openXlsxZip(bytes));
  // Styles cached: a date cell is told by its number format. Shared strings cached: the cells' texts.
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source.stream, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  // exceljs never hears of an entry that fails while inflating: wait on either.
  const next = <T>(iterator: AsyncIterator<T>) => Promise.race([iterator.next(), source.failure]);
  try {
    const sheet = await next(reader[Symbol.asyncIterator]());
    if (sheet.done) return;
    const rows = sheet.value[Symbol.asyncIterator]();
    let read = 0;
    for (let row = await next(rows); !row.done; row = await next(rows)) {
      if (++read > IMPORT_MAX_SHEET_ROWS) return void collector.stop(row.value.number);
      if (!collector.add({ line: row.value.number, cells: cellTexts(row.value) })) return;
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new HttpError(415, IMPORT_MESSAGES.badXlsx);
  } finally {
    source.close();
  }
}
