/**
 * Zip files written byte by byte for the upload bounds' tests: entries whose deflated data
 * is made up front, so a test can declare gigabytes (a zip bomb that really inflates that far, made in
 * milliseconds from repeated deflate blocks) or declare less than an entry really inflates to (a
 * lying size). A zip library writes honest sizes and deflates every byte itself, which for 4.5 GB of
 * padding takes minutes. Only what yauzl, unzipper and JSZip need: no ZIP64 (every size under 4 GB).
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';

/** One entry of a crafted zip: its raw deflate data and what the headers declare. */
export interface CraftedEntry {
  name: string;
  /** Raw deflate data (compression method 8). */
  data: Buffer;
  crc32: number;
  /** Uncompressed bytes the headers declare (the truth, or not). */
  declaredSize: number;
}

/** An entry holding `content`, deflated, with its true size. */
export function deflatedEntry(name: string, content: Buffer): CraftedEntry {
  return { name, data: deflateRawSync(content), crc32: crc32(content), declaredSize: content.length };
}

/** Raw deflate data that ends with a full flush: a piece later pieces may follow, each on its own. */
const flushed = (content: Buffer) => deflateRawSync(content, { finishFlush: constants.Z_FULL_FLUSH });
/** The last piece of a raw deflate stream: an empty final block. */
const FINAL_BLOCK = deflateRawSync(Buffer.alloc(0));

/**
 * An entry that truly inflates to `head`, then `fill` repeated `times`, then `tail`, deflated in
 * pieces (each full-flushed, so a repeated piece is valid wherever it lands: making 500 MB of zeros
 * costs one 1 MB deflate and a copy). `declaredSize` defaults to the true size; give less to lie.
 */
export function repeatedEntry(
  name: string,
  parts: { head?: Buffer; fill: Buffer; times: number; tail?: Buffer },
  declaredSize?: number,
): CraftedEntry {
  const head = parts.head ?? Buffer.alloc(0);
  const tail = parts.tail ?? Buffer.alloc(0);
  const piece = flushed(parts.fill);
  const data = Buffer.concat([
    flushed(head),
    ...Array.from({ length: parts.times }, () => piece),
    flushed(tail),
    FINAL_BLOCK,
  ]);
  let crc = crc32(head);
  for (let i = 0; i < parts.times; i++) crc = crc32(parts.fill, crc);
  crc = crc32(tail, crc);
  const size = head.length + parts.fill.length * parts.times + tail.length;
  return { name, data, crc32: crc, declaredSize: declaredSize ?? size };
}

/** The entries of a zip (e.g. a workbook exceljs wrote) with their contents, to craft it again. */
export async function unzipEntries(zip: Buffer): Promise<Array<{ name: string; content: Buffer }>> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const entries: Array<{ name: string; content: Buffer }> = [];
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry: yauzl.Entry) => {
      if (entry.fileName.endsWith('/')) return file.readEntry();
      file.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          entries.push({ name: entry.fileName, content: Buffer.concat(chunks) });
          file.readEntry();
        });
      });
    });
    file.on('end', resolve);
    file.on('error', reject);
    file.readEntry();
  });
  return entries;
}

/** The zip of `entries`: local headers and data, the central directory, its end record. */
export function craftZip(entries: CraftedEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    // Version 2.0, UTF-8 names (bit 11), deflate, 1980-01-01 00:00.
    const common = Buffer.alloc(26);
    common.writeUInt16LE(20, 0);
    common.writeUInt16LE(0x0800, 2);
    common.writeUInt16LE(8, 4);
    common.writeUInt16LE(0, 6);
    common.writeUInt16LE(0x21, 8);
    common.writeUInt32LE(entry.crc32 >>> 0, 10);
    common.writeUInt32LE(entry.data.length, 14);
    common.writeUInt32LE(entry.declaredSize, 18);
    common.writeUInt16LE(name.length, 22);
    common.writeUInt16LE(0, 24);
    const local = Buffer.concat([u32(0x04034b50), common, name, entry.data]);
    // Comment length, disk, internal and external attributes: 0; then the local header's offset.
    const tail = Buffer.alloc(14);
    tail.writeUInt32LE(offset, 10);
    centrals.push(Buffer.concat([u32(0x02014b50), u16(20), common, tail, name]));
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value);
  return buffer;
}

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16LE(value);
  return buffer;
}
