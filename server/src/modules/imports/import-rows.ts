import {
  IMPORT_COLUMNS,
  IMPORT_MAX_ROWS,
  IMPORT_MESSAGES,
  foldName,
  type ImportColumnKey,
  type ImportError,
} from '@concurso/shared';

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
export interface RawRow {
  line: number;
  cells: string[];
  /** A CSV row the parser could not read whole (an unclosed quote). */
  malformed?: string;
}

/** A header cell as matched: folded (accents, case) and without any space ('Código ' → 'codigo'). */
const headerKey = (text: string) => foldName(text).replace(/ /g, '');

/**
 * Turns raw rows into member rows as a reader hands them over, one at a time, so a reader can stop
 * at the first row that settles the answer (rows counted while reading, not after). The
 * first non-blank row is the header, whose cells are matched to {@link IMPORT_COLUMNS} ignoring
 * accents, case and spaces (other columns are ignored); blank rows are skipped. A missing column or
 * more than `IMPORT_MAX_ROWS` member rows is an error of the file, and then no row is given.
 */
export class SheetRowCollector {
  private readonly rows: SheetRow[] = [];
  private readonly errors: ImportError[] = [];
  private columns: Map<ImportColumnKey, number> | null = null;
  private headerLine = 1;
  /** Set once the answer cannot change: later rows are ignored. */
  private settled: ParsedSheet | null = null;

  /** True once no later row can change the answer: the reader may stop reading. */
  get done(): boolean {
    return this.settled !== null;
  }

  /** Takes the next raw row; false when the answer is settled and the reader should stop. */
  add(row: RawRow): boolean {
    if (this.settled) return false;
    const cells = row.cells.map((cell) => cell.trim());
    if (cells.every((cell) => cell === '') && !row.malformed) return true;
    if (!this.columns) return this.header(row.line, cells);
    if (row.malformed) {
      this.errors.push({ line: row.line, message: row.malformed });
      return true;
    }
    if (this.rows.length >= IMPORT_MAX_ROWS) return this.stop(row.line);
    const byColumn = {} as Record<ImportColumnKey, string>;
    for (const [key, index] of this.columns) byColumn[key] = cells[index] ?? '';
    this.rows.push({ line: row.line, cells: byColumn });
    return true;
  }

  /**
   * Ends the file at `line` with the too-many-rows error (`IMPORT_MESSAGES.tooManyRows`): the member
   * limit, or a reader's own limit on the rows it reads (an XLSX's `IMPORT_MAX_SHEET_ROWS`).
   */
  stop(line: number): false {
    this.settled ??= { rows: [], errors: [{ line, message: IMPORT_MESSAGES.tooManyRows }] };
    return false;
  }

  /** Ends the file at `line` with `message`, a problem that keeps the rest of it from being read. */
  fail(line: number, message: string): void {
    this.settled ??= { rows: [], errors: [{ line, message }] };
  }

  /** The file as read: its member rows, or its problems (no member row at all is one). */
  result(): ParsedSheet {
    if (this.settled) return this.settled;
    if (this.rows.length === 0 && this.errors.length === 0)
      return { rows: [], errors: [{ line: this.headerLine, message: IMPORT_MESSAGES.empty }] };
    return { rows: this.rows, errors: this.errors };
  }

  private header(line: number, cells: string[]): boolean {
    this.headerLine = line;
    const found = new Map<string, number>();
    cells.forEach((cell, index) => {
      const key = headerKey(cell);
      if (!found.has(key)) found.set(key, index);
    });
    const columns = new Map<ImportColumnKey, number>();
    const missing: ImportError[] = [];
    for (const column of IMPORT_COLUMNS) {
      const index = found.get(column.key);
      if (index === undefined) missing.push({ line, message: IMPORT_MESSAGES.missingColumn(column.header) });
      else columns.set(column.key, index);
    }
    this.columns = columns;
    if (missing.length === 0) return true;
    this.settled = { rows: [], errors: missing };
    return false;
  }
}
