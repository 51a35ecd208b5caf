/**
 * The GNU build-id of an ELF file (docs/design.md section 6a: a program is known by its bytes and their
 * similarity; the rule: agent/src/README.md "Similar files"): the linker writes a hash of the
 * program's code into a `NT_GNU_BUILD_ID` note (`.note.gnu.build-id`), and `strip`, a patched byte
 * elsewhere or bytes appended at the end leave it as it was. Two files with the same build-id are
 * one build of one program, so the agent takes it for an identity like the SHA-256.
 *
 * Reads only the ELF header, the program headers and the PT_NOTE segments (each at most
 * `NOTE_SEGMENT_MAX_BYTES`), never the whole file. Never throws: a file that is not ELF, has no
 * build-id or does not parse answers null.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';

/** A build-id: lower-case hex, 8 to 32 bytes (shared's `buildIdSchema`) (GNU ld writes 20, a SHA-1; lld and gold 8 to 32). */
export type BuildId = string;

/** Largest PT_NOTE segment read (bytes); a note segment is a few hundred bytes in practice. */
const NOTE_SEGMENT_MAX_BYTES = 64 * 1024;

/** Most program headers looked at (a normal executable has about a dozen). */
const MAX_PROGRAM_HEADERS = 256;

const PT_NOTE = 4;
const NT_GNU_BUILD_ID = 3;

/**
 * The build-id of the notes in `notes` (one PT_NOTE segment's bytes), or null. `align` is the
 * segment's alignment: 4 for classic notes, 8 for the notes of 64-bit segments aligned so.
 */
export function buildIdInNotes(notes: Buffer, littleEndian: boolean, align: number): BuildId | null {
  const u32 = (at: number) => (littleEndian ? notes.readUInt32LE(at) : notes.readUInt32BE(at));
  const pad = (n: number) => Math.ceil(n / align) * align;
  let at = 0;
  while (at + 12 <= notes.length) {
    const nameSize = u32(at);
    const descSize = u32(at + 4);
    const type = u32(at + 8);
    const nameAt = at + 12;
    const descAt = nameAt + pad(nameSize);
    const next = descAt + pad(descSize);
    if (descAt + descSize > notes.length) return null;
    const name = notes.subarray(nameAt, nameAt + nameSize).toString('latin1');
    if (type === NT_GNU_BUILD_ID && name === 'GNU\0' && descSize >= 8 && descSize <= 32) {
      return notes.subarray(descAt, descAt + descSize).toString('hex');
    }
    if (next <= at) return null;
    at = next;
  }
  return null;
}

/** A read the parser asks for: `length` bytes at `position` (fewer at the end of the file). */
interface ReadAt {
  position: number;
  length: number;
}

/**
 * The parser of `readBuildId` and `readBuildIdSync`: yields each read it needs (the ELF header, the
 * program headers, each PT_NOTE segment), is given its bytes, and returns the build-id or null.
 * @throws on bytes that do not parse (the readers answer null then).
 */
function* parseBuildId(): Generator<ReadAt, BuildId | null, Buffer> {
  const header = yield { position: 0, length: 64 };
  if (header.length < 52 || header.readUInt32BE(0) !== 0x7f454c46) return null;
  const is64 = header[4] === 2;
  const littleEndian = header[5] === 1;
  if ((header[4] !== 1 && !is64) || (header[5] !== 1 && header[5] !== 2)) return null;
  if (is64 && header.length < 64) return null;
  const u16 = (b: Buffer, at: number) => (littleEndian ? b.readUInt16LE(at) : b.readUInt16BE(at));
  const u32 = (b: Buffer, at: number) => (littleEndian ? b.readUInt32LE(at) : b.readUInt32BE(at));
  const word = (b: Buffer, at: number) =>
    is64 ? Number(littleEndian ? b.readBigUInt64LE(at) : b.readBigUInt64BE(at)) : u32(b, at);
  const phOff = word(header, is64 ? 32 : 28);
  const phEntSize = u16(header, is64 ? 54 : 42);
  const phNum = Math.min(u16(header, is64 ? 56 : 44), MAX_PROGRAM_HEADERS);
  if (phOff === 0 || phEntSize < (is64 ? 56 : 32) || phNum === 0) return null;
  const table = yield { position: phOff, length: phEntSize * phNum };
  for (let i = 0; (i + 1) * phEntSize <= table.length; i++) {
    const entry = table.subarray(i * phEntSize, (i + 1) * phEntSize);
    if (u32(entry, 0) !== PT_NOTE) continue;
    const offset = word(entry, is64 ? 8 : 4);
    const size = word(entry, is64 ? 32 : 16);
    const align = word(entry, is64 ? 48 : 28) === 8 ? 8 : 4;
    if (size === 0 || size > NOTE_SEGMENT_MAX_BYTES) continue;
    const found = buildIdInNotes(yield { position: offset, length: size }, littleEndian, align);
    if (found) return found;
  }
  return null;
}

/**
 * The GNU build-id of the ELF file `file` (lower-case hex), or null when it is not an ELF file, has
 * none or cannot be read. Reads at most a few KiB of the file.
 */
export async function readBuildId(file: string): Promise<BuildId | null> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(file, 'r');
    const parser = parseBuildId();
    for (let step = parser.next(); ;) {
      if (step.done) return step.value;
      const buffer = Buffer.alloc(step.value.length);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, step.value.position);
      step = parser.next(buffer.subarray(0, bytesRead));
    }
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * `readBuildId` in the calling thread: the same answer, without a round trip through libuv's thread
 * pool per read (four or five per file). For reading many small parts of files in a row
 * (system-build-ids.ts), where those round trips, not the reads, took the time on a busy machine.
 * Blocks for the reads of one file (a few KiB).
 */
export function readBuildIdSync(file: string): BuildId | null {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const parser = parseBuildId();
    for (let step = parser.next(); ;) {
      if (step.done) return step.value;
      const buffer = Buffer.alloc(step.value.length);
      const bytesRead = readSync(fd, buffer, 0, buffer.length, step.value.position);
      step = parser.next(buffer.subarray(0, bytesRead));
    }
  } catch {
    return null;
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        // nothing to do: the answer is read
      }
    }
  }
}
