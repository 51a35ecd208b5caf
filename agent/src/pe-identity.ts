/**
 * A Windows executable's own name for itself: the strings of its version resource (`VS_VERSIONINFO`:
 * OriginalFilename, InternalName, ProductName, CompanyName, FileDescription), read with pe-library and
 * resedit. A renamed `Discord.exe` still says `OriginalFilename: Discord.exe`, so it is that program
 * (the rule: `versionResourceMatch` below; agent/src/README.md "Version resource").
 *
 * Bounded: only the PE headers (at most `PE_HEADER_MAX_BYTES`) and the one section holding the
 * resources (at most `PE_RESOURCE_MAX_BYTES`) are read, never the whole file, whatever its size; a file
 * that is not a PE, has no version resource or does not parse answers null. Cached twice like the
 * fingerprints (fingerprint.ts): by file (path, size, mtime and inode) and by process instance
 * (`instanceKey`), so a process already read costs one map lookup per poll. Never throws.
 */
import type { Stats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { NtExecutable, NtExecutableResource } from 'pe-library';
import { Resource } from 'resedit';
import { instanceKey } from './instance-key.js';
import type { Matcher } from './matcher.js';
import type { RunningProcess } from './scanner.js';
import { OnceCache, setBounded } from './bounded-cache.js';

/** The version resource's strings the agent keeps (each trimmed, at most 255 characters; absent when empty). */
export interface PeVersionIdentity {
  originalFilename?: string;
  internalName?: string;
  productName?: string;
  companyName?: string;
  fileDescription?: string;
}

/** Most bytes read for the DOS, NT and section headers (bytes): 64 KiB. */
const PE_HEADER_MAX_BYTES = 64 * 1024;

/**
 * Largest resource section read (bytes): 16 MiB. Icons and manifests of a big program fit many times
 * over; a bigger one (an installer carrying its payload as a resource) answers null.
 */
const PE_RESOURCE_MAX_BYTES = 16 * 1024 * 1024;

/** Most files remembered with their identity; the oldest is forgotten first. */
const PE_IDENTITY_FILE_CACHE = 4_096;

/** Most process instances remembered; `retain` keeps it to the running ones anyway. */
const PE_IDENTITY_INSTANCE_CACHE = 20_000;

/** Most files read at once. */
const MAX_CONCURRENT_READS = 2;

/** The strings kept, by their name in the version resource. */
const FIELDS = {
  OriginalFilename: 'originalFilename',
  InternalName: 'internalName',
  ProductName: 'productName',
  CompanyName: 'companyName',
  FileDescription: 'fileDescription',
} as const satisfies Record<string, keyof PeVersionIdentity>;

/** `IMAGE_DIRECTORY_ENTRY_RESOURCE` and `IMAGE_DIRECTORY_ENTRY_SECURITY` (the PE format). */
const RESOURCE_DIRECTORY = 2;
const CERTIFICATE_DIRECTORY = 4;
const SECTION_HEADER_BYTES = 40;

/**
 * Reads the version resource of the PE file `file` (bounded as above), or null: not a PE file, no
 * resource section, no version resource, a resource section over `maxResourceBytes`, or data that
 * does not parse. Never throws.
 */
export async function readPeVersionIdentity(
  file: string,
  maxResourceBytes = PE_RESOURCE_MAX_BYTES,
): Promise<PeVersionIdentity | null> {
  try {
    const compact = await readCompactImage(file, maxResourceBytes);
    return compact ? versionStrings(compact) : null;
  } catch {
    return null;
  }
}

/** Reads `length` bytes at `position` of an open file; null past its end or on a short read. */
type ByteReader = (position: number, length: number) => Promise<Buffer | null>;

/** A `ByteReader` of `handle`, a file of `size` bytes. */
function byteReader(handle: Awaited<ReturnType<typeof open>>, size: number): ByteReader {
  return async (position, length) => {
    if (position < 0 || length < 0 || position + length > size) return null;
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return bytesRead === length ? buffer : null;
  };
}

/** A PE file's headers up to the end of its section table, and where its parts are in them. */
interface PeHeaders {
  /** The headers' bytes, from the file's start to the end of the section table. */
  headers: Buffer;
  /** Offset of the "PE\0\0" signature. */
  nt: number;
  sections: number;
  sectionTable: number;
  /** Offset of the optional header's data directories, and how many it declares. */
  directories: number;
  count: number;
}

/**
 * The headers of a PE file (PE32 or PE32+), at most `PE_HEADER_MAX_BYTES`; null when it is not a PE
 * or they are out of bounds.
 */
async function readPeHeaders(read: ByteReader): Promise<PeHeaders | null> {
  const dos = await read(0, 64);
  if (!dos || dos.readUInt16LE(0) !== 0x5a4d) return null; // "MZ"
  const nt = dos.readUInt32LE(0x3c);
  if (nt < 64 || nt + 24 > PE_HEADER_MAX_BYTES) return null;
  const fileHeader = await read(nt, 24);
  if (!fileHeader || fileHeader.readUInt32LE(0) !== 0x4550) return null; // "PE\0\0"
  const sections = fileHeader.readUInt16LE(6);
  const sectionTable = nt + 24 + fileHeader.readUInt16LE(20);
  const headerEnd = sectionTable + sections * SECTION_HEADER_BYTES;
  if (sections === 0 || headerEnd > PE_HEADER_MAX_BYTES) return null;
  const headers = await read(0, headerEnd);
  if (!headers) return null;
  const optional = nt + 24;
  const magic = headers.readUInt16LE(optional);
  const directories = optional + (magic === 0x20b ? 112 : magic === 0x10b ? 96 : -1);
  if (directories < optional) return null;
  return { headers, nt, sections, sectionTable, directories, count: headers.readUInt32LE(directories - 4) };
}

/** Data directory `index` of `pe` (its RVA and size), or null when the headers do not hold it. */
function dataDirectory(pe: PeHeaders, index: number): { rva: number; size: number } | null {
  if (pe.count <= index || pe.directories + 8 * (index + 1) > pe.sectionTable) return null;
  const at = pe.directories + 8 * index;
  return { rva: pe.headers.readUInt32LE(at), size: pe.headers.readUInt32LE(at + 4) };
}

/**
 * The headers and the resource section of `file` as a small PE image of their own: the section
 * table keeps only the resource section (its data right after the headers), without symbols or a
 * certificate. Enough for pe-library to read the resources, and nothing else of the file is read.
 */
async function readCompactImage(file: string, maxResourceBytes: number): Promise<Uint8Array | null> {
  const handle = await open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    const read = byteReader(handle, size);
    const pe = await readPeHeaders(read);
    const resource = pe && dataDirectory(pe, RESOURCE_DIRECTORY);
    if (!pe || !resource || resource.rva === 0) return null;
    const { headers, nt, sections, sectionTable, directories, count } = pe;
    const resourceRva = resource.rva;
    for (let i = 0; i < sections; i++) {
      const at = sectionTable + i * SECTION_HEADER_BYTES;
      const virtualAddress = headers.readUInt32LE(at + 12);
      const rawSize = headers.readUInt32LE(at + 16);
      const virtualSize = Math.max(headers.readUInt32LE(at + 8), rawSize);
      if (resourceRva < virtualAddress || resourceRva >= virtualAddress + virtualSize) continue;
      const pointer = headers.readUInt32LE(at + 20);
      // A linker may round the last section's raw size past the end of the file: what is there is read.
      const length = Math.min(rawSize, size - pointer);
      if (length <= 0 || rawSize > maxResourceBytes) return null;
      const data = await read(pointer, length);
      if (!data) return null;
      // The new image: the headers with this section alone in the table, then its data.
      const start = sectionTable + SECTION_HEADER_BYTES;
      const image = new Uint8Array(start + length);
      image.set(headers.subarray(0, sectionTable));
      image.set(headers.subarray(at, at + SECTION_HEADER_BYTES), sectionTable);
      const view = new DataView(image.buffer);
      view.setUint16(nt + 6, 1, true); // one section
      view.setUint32(nt + 12, 0, true); // no symbol table
      view.setUint32(nt + 16, 0, true);
      if (count > CERTIFICATE_DIRECTORY) {
        view.setUint32(directories + 8 * CERTIFICATE_DIRECTORY, 0, true); // no signature
        view.setUint32(directories + 8 * CERTIFICATE_DIRECTORY + 4, 0, true);
      }
      view.setUint32(sectionTable + 8, virtualSize, true);
      view.setUint32(sectionTable + 16, length, true);
      view.setUint32(sectionTable + 20, start, true);
      image.set(data, start);
      return image;
    }
    return null;
  } finally {
    await handle.close();
  }
}

/** `IMAGE_DIRECTORY_ENTRY_DEBUG`, a debug directory entry's size and its CodeView type (the PE format). */
const DEBUG_DIRECTORY = 6;
const DEBUG_ENTRY_BYTES = 28;
const DEBUG_TYPE_CODEVIEW = 2;
/** Most debug directory entries looked at (a linker writes a handful). */
const MAX_DEBUG_ENTRIES = 32;

/**
 * The build-id of a PE file: its CodeView record's («RSDS») GUID and age, as the linker wrote them
 * for the program's PDB, 40 lower-case hex digits (the GUID's 16 bytes, then the age's 4, as stored).
 * Like an ELF build-id (build-id.ts) it names one link of the program: a copy renamed, patched or
 * padded at its end keeps it, another build of the same sources does not. Reads the headers and the
 * debug directory only (a few KB, whatever the file's size), so a big program's copy is known before
 * its similarity digest is ready (agent/src/README.md «Similar files»). Null when the file is not a
 * PE, has no CodeView record (MinGW's stripped programs, for one) or its GUID is all zeros; never throws.
 */
export async function readPeBuildId(file: string): Promise<string | null> {
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  try {
    handle = await open(file, 'r');
    const size = (await handle.stat()).size;
    const read = byteReader(handle, size);
    const pe = await readPeHeaders(read);
    const debug = pe && dataDirectory(pe, DEBUG_DIRECTORY);
    if (!pe || !debug || debug.rva === 0 || debug.size < DEBUG_ENTRY_BYTES) return null;
    const { headers, sections, sectionTable } = pe;
    const { rva: debugRva, size: debugSize } = debug;
    // The directory's RVA as a file offset, through the section that holds it.
    let offset = -1;
    for (let i = 0; i < sections; i++) {
      const at = sectionTable + i * SECTION_HEADER_BYTES;
      const virtualAddress = headers.readUInt32LE(at + 12);
      const rawSize = headers.readUInt32LE(at + 16);
      if (debugRva >= virtualAddress && debugRva + debugSize <= virtualAddress + rawSize) {
        offset = headers.readUInt32LE(at + 20) + (debugRva - virtualAddress);
        break;
      }
    }
    const entries = Math.min(Math.floor(debugSize / DEBUG_ENTRY_BYTES), MAX_DEBUG_ENTRIES);
    const table = offset >= 0 ? await read(offset, entries * DEBUG_ENTRY_BYTES) : null;
    if (!table) return null;
    for (let i = 0; i < entries; i++) {
      const at = i * DEBUG_ENTRY_BYTES;
      if (table.readUInt32LE(at + 12) !== DEBUG_TYPE_CODEVIEW || table.readUInt32LE(at + 16) < 24) continue;
      const record = await read(table.readUInt32LE(at + 24), 24);
      if (!record || record.toString('latin1', 0, 4) !== 'RSDS') continue;
      const guid = record.subarray(4, 20);
      if (guid.every((byte) => byte === 0)) continue;
      return record.subarray(4, 24).toString('hex');
    }
    return null;
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The kept strings of the first version resource of `image`, or null when it has none. */
function versionStrings(image: Uint8Array): PeVersionIdentity | null {
  const resources = NtExecutableResource.from(NtExecutable.from(image), true);
  const identity: PeVersionIdentity = {};
  for (const info of Resource.VersionInfo.fromEntries(resources.entries)) {
    for (const language of info.getAllLanguagesForStringValues()) {
      const values = info.getStringValues(language);
      for (const [key, field] of Object.entries(FIELDS)) {
        const value = clean(values[key]);
        if (value && identity[field] === undefined) identity[field] = value;
      }
    }
  }
  return Object.keys(identity).length > 0 ? identity : null;
}

/** A string of the resource without NULs, control characters or outer blanks, at most 255 characters. */
function clean(value: string | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const text = value.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return text === '' ? undefined : text.slice(0, 255);
}

/** Which field of the version resource made the match, and the blocked name as configured. */
export interface VersionResourceMatch {
  blocked: string;
  field: 'OriginalFilename' | 'InternalName';
  /** The field's value (e.g. `Discord.exe`). */
  value: string;
}

/**
 * The blocked program a file says it is (agent/src/README.md "Version resource"): its OriginalFilename,
 * else its InternalName, compared like a process's file name (`byName`: case-insensitive, with or
 * without `.exe`). ProductName, CompanyName and FileDescription never match: one product ships many
 * programs (every Windows tool says «Microsoft® Windows® Operating System», a browser's updater and
 * crash reporter say its ProductName), so they would end programs nobody blocked.
 */
export function versionResourceMatch(
  identity: PeVersionIdentity | null | undefined,
  byName: Matcher,
): VersionResourceMatch | null {
  if (!identity) return null;
  for (const field of ['OriginalFilename', 'InternalName'] as const) {
    const value = identity[FIELDS[field]];
    const blocked = value ? byName({ name: value }) : null;
    if (blocked !== null && value) return { blocked, field, value };
  }
  return null;
}

/** Counters, for tests and the bench. */
export interface PeIdentityStats {
  /** Files actually opened and read. */
  read: number;
  /** Answers from the file cache after a stat. */
  fileHits: number;
}

export interface PeIdentitiesOptions {
  /** Replaces the reader (tests). Default `readPeVersionIdentity`. */
  reader?: (file: string) => Promise<PeVersionIdentity | null>;
  /** Most files cached. Default `PE_IDENTITY_FILE_CACHE`. */
  maxFiles?: number;
}

/**
 * The version resources of the processes' executables, cached by file (`path|size|mtime|dev:ino`: a
 * changed file is read again) and by process instance, with at most two files read at once.
 */
export class PeIdentities {
  private readonly reader: (file: string) => Promise<PeVersionIdentity | null>;
  private readonly maxFiles: number;
  private readonly files = new Map<string, PeVersionIdentity | null>();
  private readonly instances = new OnceCache<PeVersionIdentity | null>(PE_IDENTITY_INSTANCE_CACHE);
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  readonly stats: PeIdentityStats = { read: 0, fileHits: 0 };

  constructor(options: PeIdentitiesOptions = {}) {
    this.reader = options.reader ?? ((file) => readPeVersionIdentity(file));
    this.maxFiles = Math.max(1, options.maxFiles ?? PE_IDENTITY_FILE_CACHE);
  }

  /** The identity an instance got earlier (undefined: not read yet). No I/O. */
  known(proc: RunningProcess): PeVersionIdentity | null | undefined {
    return this.instances.done.get(instanceKey(proc));
  }

  /**
   * The version resource of a running process's executable (`path`), or null when it has none or no
   * path is known. Two calls for one instance while it is read share that work.
   */
  ofProcess(proc: RunningProcess): Promise<PeVersionIdentity | null> {
    return this.instances.get(instanceKey(proc), () => this.resolve(proc.path));
  }

  /** Forgets instances absent from the latest process list, keeping memory bounded by what runs. */
  retain(current: readonly RunningProcess[]): void {
    const { done } = this.instances;
    if (done.size === 0) return;
    const live = new Set(current.map(instanceKey));
    for (const key of done.keys()) if (!live.has(key)) done.delete(key);
  }

  private async resolve(file: string | undefined): Promise<PeVersionIdentity | null> {
    if (!file) return null;
    let info: Stats;
    try {
      info = await stat(file);
    } catch {
      return null;
    }
    if (!info.isFile()) return null;
    const key = `${file}|${info.size}|${info.mtimeMs}|${info.dev}:${info.ino}`;
    if (this.files.has(key)) {
      this.stats.fileHits += 1;
      return this.files.get(key)!;
    }
    while (this.active >= MAX_CONCURRENT_READS) await new Promise<void>((r) => this.waiting.push(r));
    this.active += 1;
    let identity: PeVersionIdentity | null;
    try {
      this.stats.read += 1;
      identity = await this.reader(file).catch(() => null);
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
    setBounded(this.files, key, identity, this.maxFiles);
    return identity;
  }
}

/**
 * The agent's default: version resources are read on Windows only, where executables are PE files;
 * elsewhere null (a Linux or macOS agent pays nothing for it).
 */
export function defaultPeIdentities(platform: NodeJS.Platform = process.platform): PeIdentities | null {
  return platform === 'win32' ? new PeIdentities() : null;
}
