import { readCsvRows } from './import-csv.js';
import { SheetRowCollector, type ParsedSheet } from './import-rows.js';
import type { ReceivedSheet } from './import-upload.js';
import { readXlsxRows } from './import-xlsx.js';

/**
 * Reads a registration file (issue 13) into member rows by line: a CSV with papaparse in slices
 * (import-csv.ts) or the first sheet of an XLSX with exceljs's streaming reader (import-xlsx.ts), the
 * rows counted as they are read and the reading stopped once the answer is settled (issue 21).
 * @throws HttpError 413 for an XLSX beyond the zip bounds, 415 for an XLSX that cannot be read.
 */
export async function parseSheet(sheet: ReceivedSheet): Promise<ParsedSheet> {
  const collector = new SheetRowCollector();
  if (sheet.kind === 'xlsx') await readXlsxRows(sheet.bytes, collector);
  // TextDecoder drops a UTF-8 BOM; the content was checked as UTF-8 on arrival.
  else await readCsvRows(new TextDecoder('utf-8').decode(sheet.bytes), collector);
  return collector.result();
}
