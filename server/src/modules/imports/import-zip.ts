import { Transform, pipeline, type Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { IMPORT_MESSAGES, IMPORT_XLSX_MAX_ENTRIES, IMPORT_XLSX_MAX_UNZIPPED_BYTES } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';

/** An XLSX's zip whose central directory passed the bounds: its entries by name, none inflated yet. */
export interface XlsxZip {
  zip: yauzl.ZipFile;
  entries: Map<string, yauzl.Entry>;
}

/** Most bytes handed on between two turns of the event loop (a stored entry comes as one chunk). */
const SLICE_BYTES = 64 * 1024;

/**
 * The central directory of an XLSX (a zip) read and bounded before anything is inflated (docs/design.md
 * 6a: a 4.6 MB file whose padding entries inflated to 4.5 GB took 2.4 GB and 16 s): at most
 * `IMPORT_XLSX_MAX_ENTRIES` entries and `IMPORT_XLSX_MAX_UNZIPPED_BYTES` of declared uncompressed
 * bytes, all entries added. yauzl then holds each entry to its declared size while inflating.
 * @throws HttpError 413 (`xlsxTooManyEntries`, `xlsxTooLarge`) beyond a bound; 415 (`badXlsx`) when the
 *   bytes are not a readable zip (no central directory, bad entry names, encrypted entries).
 */
export async function openXlsxZip(bytes: Buffer): Promise<XlsxZip> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true });
  } catch {
    throw new HttpError(415, IMPORT_MESSAGES.badXlsx);
  }
  // The count comes from the end-of-central-directory record: refused before reading any entry.
  if (zip.entryCount > IMPORT_XLSX_MAX_ENTRIES) throw new HttpError(413, IMPORT_MESSAGES.xlsxTooManyEntries);
  const entries = new Map<string, yauzl.Entry>();
  let declared = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      declared += entry.uncompressedSize;
      if (declared > IMPORT_XLSX_MAX_UNZIPPED_BYTES)
        return reject(new HttpError(413, IMPORT_MESSAGES.xlsxTooLarge));
      if (entry.isEncrypted()) return reject(new HttpError(415, IMPORT_MESSAGES.badXlsx));
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve());
    zip.once('error', () => reject(new HttpError(415, IMPORT_MESSAGES.badXlsx)));
    zip.readEntry();
  });
  return { zip, entries };
}

/** Hands chunks on in slices of at most `SLICE_BYTES`, a turn of the event loop apart. */
function yieldingSlices(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      void (async () => {
        for (let start = 0; start < chunk.length; start += SLICE_BYTES) {
          this.push(chunk.subarray(start, start + SLICE_BYTES));
          await nextTurn();
        }
      })().then(() => done(), done);
    },
  });
}

/** An empty shared-strings part, for a workbook that has none (its cells hold their own texts). */
const EMPTY_SHARED_STRINGS = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>' +
    '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>',
);

/** The first worksheet's part: `xl/worksheets/sheetN.xml` with the lowest N (writers number them in tab order). */
function firstSheetName(entries: Map<string, yauzl.Entry>): string | undefined {
  let first: { name: string; number: number } | undefined;
  for (const name of entries.keys()) {
    const match = /^xl\/worksheets\/sheet(\d+)\.xml$/.exec(name);
    if (match && (!first || Number(match[1]) < first.number)) first = { name, number: Number(match[1]) };
  }
  return first?.name;
}

/**
 * The parts exceljs's streaming reader needs to read the first sheet, as a new zip stream in the
 * order it reads best (relations, workbook, styles, shared strings, then the sheet, so the sheet is
 * read as it inflates instead of spooled to a temporary file): every other entry is left out and never
 * inflated. Entries are inflated by yauzl, held to their declared sizes (a lying size is an error
 * while inflating, not after) and handed on in slices a turn of the event loop apart; the new zip
 * stores them (no second compression). `failure` rejects with HttpError 415 on the first bad entry.
 * @throws HttpError 415 (`badXlsx`) when the workbook or its relations are missing.
 */
export function workbookStream(xlsx: XlsxZip): { stream: Readable; failure: Promise<never>; close(): void } {
  const { zip, entries } = xlsx;
  const sheet = firstSheetName(entries);
  const parts = ['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', 'xl/styles.xml', 'xl/sharedStrings.xml'];
  if (!entries.has(parts[0]!) || !entries.has(parts[1]!)) throw new HttpError(415, IMPORT_MESSAGES.badXlsx);
  const out = new yazl.ZipFile();
  const opened: Readable[] = [];
  let fail: () => void = () => undefined;
  const failure = new Promise<never>((_resolve, reject) => {
    fail = () => reject(new HttpError(415, IMPORT_MESSAGES.badXlsx));
  });
  out.on('error', () => fail());
  // Nobody may be waiting on `failure` when it rejects (the reader stopped first): not unhandled.
  failure.catch(() => undefined);
  for (const name of sheet ? [...parts, sheet] : parts) {
    const entry = entries.get(name);
    if (!entry) {
      if (name === 'xl/sharedStrings.xml') out.addBuffer(EMPTY_SHARED_STRINGS, name, { compress: false });
      continue;
    }
    out.addReadStreamLazy(name, { compress: false, size: entry.uncompressedSize }, (give) => {
      zip.openReadStream(entry, (err, inflated) => {
        if (err) return give(err, undefined as unknown as Readable);
        opened.push(inflated);
        // yazl does not listen for a lazy stream's errors (yauzl's size check, zlib's): they land here.
        give(
          null,
          pipeline(inflated, yieldingSlices(), (error) => error && fail()),
        );
      });
    });
  }
  out.end();
  const stream = out.outputStream as Readable;
  return {
    stream,
    failure,
    close() {
      stream.unpipe();
      stream.destroy();
      for (const inflated of opened) {
        inflated.unpipe();
        inflated.destroy();
      }
    },
  };
}
