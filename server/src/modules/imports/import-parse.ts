import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import {
  IMPORT_COLUMNS,
  IMPORT_MAX_ROWS,
  IMPORT_MESSAGES,
  foldName,
  type ImportColumnKey,
  type ImportError,
} from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import type { ReceivedSheet } from './import-upload.js';

/** One member row of a registration file: its line and its cells by column, trimmed ('' when empty). */
export interface SheetRow {
  line: number;
  cells: Record<ImportColumnKey, string>;
}

/** A registration file read: its member rows, or the problems that keep its rows from being read. */
export interface ParsedSheet {
  rows: SheetRow[];
  /** Problems of the file as a whole (header, malformed CSV rows, too many rows), by line. */
  errors: ImportError[];
}

/** One raw row of either format: its line (header = 1) and its cells as texts. */
interface RawRow {
  line: number;
  cells: string[];
  /** A CSV row the parser could not read whole (an unclosed quote). */
  malformed?: string;
}

/** A header cell as matched: folded (accents, case) and without any space ('Código ' → 'codigo'). */
const headerKey = (text: string) => foldName(text).replace(/ /g, '');

/**
 * Turns raw rows into member rows: the first non-blank row is the header, whose cells are matched to
 * {@link IMPORT_COLUMNS} ignoring accents, case and spaces (other columns are ignored); blank rows are
 * skipped. A missing column, no member row, or more than `IMPORT_MAX_ROWS` rows is an error of the
 * file, and then no row is given.
 */
function toSheetRows(raw: Iterable<RawRow>): ParsedSheet {
  const rows: SheetRow[] = [];
  const errors: ImportError[] = [];
  let columns: Map<ImportColumnKey, number> | null = null;
  let headerLine = 1;
  for (const row of raw) {
    const cells = row.cells.map((cell) => cell.trim());
    if (cells.every((cell) => cell === '') && !row.malformed) continue;
    if (!columns) {
      headerLine = row.line;
      const found = new Map<string, number>();
      cells.forEach((cell, index) => {
        const key = headerKey(cell);
        if (!found.has(key)) found.set(key, index);
      });
      columns = new Map();
      for (const column of IMPORT_COLUMNS) {
        const index = found.get(column.key);
        if (index === undefined)
          errors.push({ line: row.line, message: IMPORT_MESSAGES.missingColumn(column.header) });
        else columns.set(column.key, index);
      }
      if (errors.length > 0) return { rows: [], errors };
      continue;
    }
    if (row.malformed) {
      errors.push({ line: row.line, message: row.malformed });
      continue;
    }
    if (rows.length >= IMPORT_MAX_ROWS)
      return { rows: [], errors: [{ line: row.line, message: IMPORT_MESSAGES.tooManyRows }] };
    const byColumn = {} as Record<ImportColumnKey, string>;
    for (const [key, index] of columns) byColumn[key] = cells[index] ?? '';
    rows.push({ line: row.line, cells: byColumn });
  }
  if (rows.length === 0 && errors.length === 0)
    errors.push({ line: headerLine, message: IMPORT_MESSAGES.empty });
  return { rows, errors };
}

/**
 * The raw rows of a CSV (papaparse, delimiter detected among `,` `;` tab and `|`: Spanish Excel writes
 * `;`). A row's line is the file's line where it starts, so a quoted cell spanning lines keeps the
 * numbering of a text editor.
 */
function csvRows(text: string): RawRow[] {
  const rows: RawRow[] = [];
  const newline = text.includes('\n') ? '\n' : '\r';
  let line = 1;
  let counted = 0;
  Papa.parse<string[]>(text, {
    delimitersToGuess: [',', ';', '\t', '|'],
    step(result) {
      // The row began where the previous one ended (`counted`): count the line breaks up to there.
      const malformed = result.errors.find((e) => e.type === 'Quotes');
      rows.push({
        line,
        cells: result.data,
        malformed: malformed ? 'La fila tiene comillas sin cerrar' : undefined,
      });
      const end = result.meta.cursor;
      for (let i = text.indexOf(newline, counted); i !== -1 && i < end; i = text.indexOf(newline, i + 1))
        line++;
      counted = end;
    },
  });
  return rows;
}

/** The text of an XLSX cell as shown (a number as its digits, a formula as its result, rich text joined). */
function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value;
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return cell.text ?? '';
}

/** The raw rows of an XLSX's first worksheet (exceljs); a row's line is its row number. */
async function xlsxRows(bytes: Buffer): Promise<RawRow[]> {
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's own Buffer type predates Node's generic Buffer.
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch {
    throw new HttpError(415, IMPORT_MESSAGES.badXlsx);
  }
  const sheet = workbook.worksheets[0];
  const rows: RawRow[] = [];
  sheet?.eachRow({ includeEmpty: false }, (row, number) => {
    const cells: string[] = [];
    for (let column = 1; column <= row.cellCount; column++) cells.push(cellText(row.getCell(column)));
    rows.push({ line: number, cells });
  });
  return rows;
}

/**
 * Reads a registration file (issue 13): a CSV with papaparse or the first sheet of an XLSX with
 * exceljs, into member rows by line. @throws HttpError 415 for an XLSX exceljs cannot open.
 */
export async function parseSheet(sheet: ReceivedSheet): Promise<ParsedSheet> {
  if (sheet.kind === 'xlsx') return toSheetRows(await xlsxRows(sheet.bytes));
  // TextDecoder drops a UTF-8 BOM; the content was checked as UTF-8 on arrival.
  return toSheetRows(csvRows(new TextDecoder('utf-8').decode(sheet.bytes)));
}
