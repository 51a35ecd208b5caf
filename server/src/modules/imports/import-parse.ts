import iconv from 'iconv-lite';
import { readCsvRows } from './import-csv.js';
import { SheetRowCollector, type ParsedSheet } from './import-rows.js';
import type { ReceivedSheet } from './import-upload.js';
import { readXlsxRows } from './import-xlsx.js';

/**
 * A CSV's text in the encoding settled on arrival (import-upload.ts). UTF-8 by TextDecoder (it drops
 * a BOM); Windows-1252 by iconv-lite, because Node 20's TextDecoder('windows-1252') reads it as
 * Latin-1 and turns Excel's ’ – “ ” into invisible control characters.
 */
function csvText(sheet: ReceivedSheet): string {
  return sheet.encoding === 'windows-1252'
    ? iconv.decode(sheet.bytes, 'win1252')
    : new TextDecoder('utf-8').decode(sheet.bytes);
}

/**
 * Reads a registration file into member rows by line: a CSV, UTF-8 or Windows-1252 as
 * received, with papaparse in slices (import-csv.ts) or the first sheet of an XLSX with exceljs's streaming reader (import-xlsx.ts), the
 * rows counted as they are read and the reading stopped once the answer is settled.
 * @throws HttpError 413 for an XLSX beyond the zip bounds, 415 for an XLSX that cannot be read.
 */
export async function parseSheet(sheet: ReceivedSheet): Promise<ParsedSheet> {
  const collector = new SheetRowCollector();
  if (sheet.kind === 'xlsx') await readXlsxRows(sheet.bytes, collector);
  else await readCsvRows(csvText(sheet), collector);
  return collector.result();
}
