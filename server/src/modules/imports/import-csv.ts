import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import Papa from 'papaparse';
import { IMPORT_MESSAGES } from '@concurso/shared';
import type { SheetRowCollector } from './import-rows.js';

/**
 * Characters papaparse reads between two turns of the event loop (16 K: a few ms even for 16,000
 * blank lines), so one 5 MB upload never holds the loop for long (docs/design.md 6a).
 */
const SLICE_CHARS = 16 * 1024;
/**
 * Most characters of one row (256 K; a member's row is under 1 K). papaparse reads an unfinished row
 * again with every slice, so an unclosed quote that swallows the file would cost time growing with the
 * square of its length; past this the file ends at that row with `IMPORT_MESSAGES.rowTooLong`.
 */
const MAX_ROW_CHARS = 256 * 1024;
/**
 * Characters the delimiter guess reads (64 K: the first 10 rows of any registration file, all
 * papaparse's guess looks at). papaparse's own guess would split its whole input (5 MB of lines) at once.
 */
const GUESS_CHARS = 64 * 1024;
/** papaparse guesses line breaks from the first 1 MB of a text. */
const NEWLINE_GUESS_CHARS = 1024 * 1024;

/**
 * The line break papaparse would pick for `text`, counted in one pass instead of its splits: after
 * dropping quoted texts from the first 1 MB, `\n` when there is no `\r` or a `\n` comes first, else
 * `\r\n` when at least half the pieces between `\r`s start with `\n`, else `\r`.
 */
function guessNewline(text: string): '\n' | '\r\n' | '\r' {
  const head = text.slice(0, NEWLINE_GUESS_CHARS).replace(/"[^]*?"/g, '');
  const firstR = head.indexOf('\r');
  const firstN = head.indexOf('\n');
  if (firstR === -1 || (firstN !== -1 && firstN < firstR)) return '\n';
  let pieces = 1;
  let crlf = 0;
  for (let i = firstR; i !== -1; i = head.indexOf('\r', i + 1)) {
    pieces++;
    if (head.charCodeAt(i + 1) === 10) crlf++;
  }
  return crlf >= pieces / 2 ? '\r\n' : '\r';
}

/** The line breaks and delimiter papaparse picks for `text` (`,` `;` tab `|`; `,` when none fits). */
function guessDialect(text: string): { newline: '\n' | '\r\n' | '\r'; delimiter: string } {
  const newline = guessNewline(text);
  const { meta } = Papa.parse<string[]>(text.slice(0, GUESS_CHARS), {
    preview: 10,
    newline,
    delimitersToGuess: [',', ';', '\t', '|'],
  });
  return { newline, delimiter: meta.delimiter };
}

/**
 * Reads a CSV's rows into `collector` (papaparse, delimiter detected among `,` `;` tab and `|`:
 * Spanish Excel writes `;`) in 16 K slices with a turn of the event loop between them (5 MB
 * of blank lines once held the loop 2 s), until the collector has its answer. A row's line is the
 * file's line where it starts, so a quoted cell spanning lines keeps the numbering of a text editor;
 * lines are counted as `\n` (or `\r` in a file without `\n`), each character once. A row longer than
 * 256 K ends the file there (`IMPORT_MESSAGES.rowTooLong` on its line).
 * @throws what papaparse's stream reports (none is expected from text).
 */
export async function readCsvRows(text: string, collector: SheetRowCollector): Promise<void> {
  const { newline, delimiter } = guessDialect(text);
  const lineBreak = (text.includes('\n') ? '\n' : '\r').charCodeAt(0);
  let line = 1;
  /** Where the last row read ended (papaparse's cursor, from the text's start). */
  let counted = 0;
  /** The line of a row cut for its length, once the slices stopped for it. */
  let cutAt: number | null = null;

  async function* slices(): AsyncGenerator<string> {
    for (let start = 0; start < text.length && !collector.done; start += SLICE_CHARS) {
      // Everything since `counted` is one unfinished row.
      if (start - counted > MAX_ROW_CHARS) {
        cutAt = line;
        return;
      }
      yield text.slice(start, start + SLICE_CHARS);
      await nextTurn();
    }
  }

  await new Promise<void>((resolve, reject) => {
    // highWaterMark 1: no slice is read ahead of the parsing, so the checks above see the rows so far.
    Papa.parse<string[]>(Readable.from(slices(), { highWaterMark: 1 }), {
      newline,
      delimiter,
      step(result) {
        if (collector.done || cutAt !== null) return;
        const malformed = result.errors.find((e) => e.type === 'Quotes');
        collector.add({
          line,
          cells: result.data,
          malformed: malformed ? 'La fila tiene comillas sin cerrar' : undefined,
        });
        // The next row begins where this one ended: count the line breaks up to there.
        const end = result.meta.cursor;
        for (let i = counted; i < end; i++) if (text.charCodeAt(i) === lineBreak) line++;
        counted = end;
      },
      complete: () => resolve(),
      error: reject,
    });
  });
  if (cutAt !== null) collector.fail(cutAt, IMPORT_MESSAGES.rowTooLong(MAX_ROW_CHARS / 1024));
}
