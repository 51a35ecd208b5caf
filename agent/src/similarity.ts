/**
 * Similarity digests of executables (docs/design.md section 6a: a program is known by its bytes and
 * their similarity; the rule: agent/src/README.md "Similar files"): a copy of a blocked program
 * patched by a few bytes, padded at its end or stripped again has a new SHA-256 but almost the same
 * TLSH digest (Trend Micro's locality-sensitive hash: 128 buckets, 1-byte checksum, the 70 hex
 * digits without TLSH 4's `T1` prefix). The digest is the same, digit for digit, as the `tlsh` npm
 * package's (agent/test/similarity.test.ts checks it on real files); this file computes it by
 * streaming a file in chunks, which that package cannot (it takes one string of the whole file, and
 * costs about 270 ms per MB where this costs about 15: bench/similarity.ts).
 *
 * The distance of two digests and the threshold under which they are one program live in
 * shared/src/similarity.ts (the server compares digests too). Why TLSH and not ssdeep: bench/similarity.ts
 * and bench/BENCHMARKS.md.
 */
import { open } from 'node:fs/promises';
import type { Tlsh } from '@concurso/shared';

/** Fewest bytes digested: TLSH needs this much data (the `tlsh` package's own minimum). */
const TLSH_MIN_BYTES = 512;

/**
 * Most bytes of a file digested: its first 32 MiB. A patched or padded copy of a big program (a
 * browser, a local LLM runner) shares that prefix with its original, so it still matches, and a
 * 300 MB file costs the agent the same as a 32 MB one (about 0.1–0.3 s of CPU, in slices that
 * never hold up a scan, see `digestFile`).
 */
export const SIMILARITY_MAX_BYTES = 32 * 1024 * 1024;

/** Pearson's permutation table, TLSH's `v_table`. */
const V_TABLE = Uint8Array.from([
  1, 87, 49, 12, 176, 178, 102, 166, 121, 193, 6, 84, 249, 230, 44, 163, 14, 197, 213, 181, 161, 85, 218, 80,
  64, 239, 24, 226, 236, 142, 38, 200, 110, 177, 104, 103, 141, 253, 255, 50, 77, 101, 81, 18, 45, 96, 31,
  222, 25, 107, 190, 70, 86, 237, 240, 34, 72, 242, 20, 214, 244, 227, 149, 235, 97, 234, 57, 22, 60, 250, 82,
  175, 208, 5, 127, 199, 111, 62, 135, 248, 174, 169, 211, 58, 66, 154, 106, 195, 245, 171, 17, 187, 182, 179,
  0, 243, 132, 56, 148, 75, 128, 133, 158, 100, 130, 126, 91, 13, 153, 246, 216, 219, 119, 68, 223, 78, 83,
  88, 201, 99, 122, 11, 92, 32, 136, 114, 52, 10, 138, 30, 48, 183, 156, 35, 61, 26, 143, 74, 251, 94, 129,
  162, 63, 152, 170, 7, 115, 167, 241, 206, 3, 150, 55, 59, 151, 220, 90, 53, 23, 131, 125, 173, 15, 238, 79,
  95, 89, 16, 105, 137, 225, 224, 217, 160, 37, 123, 118, 73, 2, 157, 46, 116, 9, 145, 134, 228, 207, 212,
  202, 215, 69, 229, 27, 188, 67, 124, 168, 252, 42, 4, 29, 108, 21, 247, 19, 205, 39, 203, 233, 40, 186, 147,
  198, 192, 155, 33, 164, 191, 98, 204, 165, 180, 117, 76, 140, 36, 210, 172, 41, 54, 159, 8, 185, 232, 113,
  196, 231, 47, 146, 120, 51, 65, 28, 144, 254, 221, 93, 189, 194, 139, 112, 43, 71, 109, 184, 209,
]);

/** `V_TABLE[V_TABLE[salt] ^ a]` for TLSH's six salts, so the hot loop does one lookup fewer. */
function saltRow(salt: number): Uint8Array {
  const row = new Uint8Array(256);
  for (let a = 0; a < 256; a++) row[a] = V_TABLE[V_TABLE[salt]! ^ a]!;
  return row;
}
const S0 = saltRow(0);
const S2 = saltRow(2);
const S3 = saltRow(3);
const S5 = saltRow(5);
const S7 = saltRow(7);
const S11 = saltRow(11);
const S13 = saltRow(13);

/**
 * Scratch counters of `TlshBuilder.update`: one module-level array, so the hot loop indexes a constant
 * (V8 then drops its map and bounds checks); `update` is synchronous, so it copies a builder's counts
 * in and out and builders never share them.
 */
const SCRATCH = new Uint32Array(256);

/**
 * Incremental TLSH: `update` with consecutive chunks of a file, then `digest`. Memory: 256 counters
 * and the last four bytes, whatever the file's size.
 */
export class TlshBuilder {
  /**
   * Counts by each bucket's index before Pearson's last step: bucket `V_TABLE[z]` is counted at `z`
   * (`V_TABLE` is a permutation, so the counts are the same; `digest` maps them back), one table
   * lookup fewer per salt and byte.
   */
  private readonly counts = new Uint32Array(256);
  private checksum = 0;
  private length = 0;
  // The four bytes before the next one (c1 the newest).
  private c1 = 0;
  private c2 = 0;
  private c3 = 0;
  private c4 = 0;

  /** Feeds the next bytes. */
  update(data: Uint8Array): void {
    // `& 255` everywhere: every index is then known to be a byte, so V8 checks no bound.
    let checksum = this.checksum & 255;
    let c1 = this.c1 & 255;
    let c2 = this.c2 & 255;
    let c3 = this.c3 & 255;
    let c4 = this.c4 & 255;
    let start = 0;
    // The first four bytes of the file only fill the window.
    while (this.length < 4 && start < data.length) {
      c4 = c3;
      c3 = c2;
      c2 = c1;
      c1 = data[start]!;
      start += 1;
      this.length += 1;
    }
    const v = V_TABLE;
    const z = SCRATCH;
    z.set(this.counts);
    const end = data.length;
    for (let i = start; i < end; i++) {
      const c0 = data[i]!;
      checksum = v[(v[(S0[c0]! ^ c1) & 255]! ^ checksum) & 255]!;
      z[(v[(S2[c0]! ^ c1) & 255]! ^ c2) & 255]! += 1;
      z[(v[(S3[c0]! ^ c1) & 255]! ^ c3) & 255]! += 1;
      z[(v[(S5[c0]! ^ c2) & 255]! ^ c3) & 255]! += 1;
      z[(v[(S7[c0]! ^ c2) & 255]! ^ c4) & 255]! += 1;
      z[(v[(S11[c0]! ^ c1) & 255]! ^ c4) & 255]! += 1;
      z[(v[(S13[c0]! ^ c3) & 255]! ^ c4) & 255]! += 1;
      c4 = c3;
      c3 = c2;
      c2 = c1;
      c1 = c0;
    }
    this.counts.set(z);
    this.length += end - start;
    this.checksum = checksum;
    this.c1 = c1;
    this.c2 = c2;
    this.c3 = c3;
    this.c4 = c4;
  }

  /** The digest of what was fed, or null when it is shorter than `TLSH_MIN_BYTES` or too uniform. */
  digest(): Tlsh | null {
    if (this.length < TLSH_MIN_BYTES) return null;
    const buckets = new Uint32Array(256);
    for (let z = 0; z < 256; z++) buckets[V_TABLE[z]!] = this.counts[z]!;
    const counts = buckets.subarray(0, 128);
    let nonzero = 0;
    for (const count of counts) if (count > 0) nonzero += 1;
    if (nonzero <= 64) return null;
    const sorted = Uint32Array.from(counts).sort();
    const q1 = sorted[31]!;
    const q2 = sorted[63]!;
    const q3 = sorted[95]!;
    const body = new Uint8Array(32);
    for (let i = 0; i < 32; i++) {
      let h = 0;
      for (let j = 0; j < 4; j++) {
        const k = counts[4 * i + j]!;
        if (q3 < k) h += 3 << (j * 2);
        else if (q2 < k) h += 2 << (j * 2);
        else if (q1 < k) h += 1 << (j * 2);
      }
      body[i] = h;
    }
    const q1Ratio = Math.floor((q1 * 100) / q3) % 16;
    const q2Ratio = Math.floor((q2 * 100) / q3) % 16;
    const hex = (byte: number) => byte.toString(16).toUpperCase().padStart(2, '0');
    // Checksum, L and Q are written nibble-swapped, the body last byte first (TLSH's string form).
    let out = hex(swap(this.checksum)) + hex(swap(lValue(this.length))) + hex(swap(q1Ratio | (q2Ratio << 4)));
    for (let i = 31; i >= 0; i--) out += hex(body[i]!);
    return out;
  }
}

function swap(byte: number): number {
  return ((byte & 0x0f) << 4) | ((byte & 0xf0) >> 4);
}

/** TLSH's length byte: the log of the length in steps of about 10 % (large files). */
function lValue(length: number): number {
  if (length <= 656) return Math.floor(Math.log(length) / 0.4054651) % 256;
  if (length <= 3199) return Math.floor(Math.log(length) / 0.26236426 - 8.72777) % 256;
  return Math.floor(Math.log(length) / 0.09531018 - 62.5472) % 256;
}

/** The TLSH digest of bytes in memory (null: too short or too uniform). */
export function tlshOf(data: Uint8Array): Tlsh | null {
  const builder = new TlshBuilder();
  builder.update(data);
  return builder.digest();
}

/** Bytes read at a time by `digestFile`: one slice of CPU between two turns of the event loop. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The TLSH digest of a file's first `maxBytes` bytes (default `SIMILARITY_MAX_BYTES`), read 64 KiB at
 * a time into one buffer: each chunk is a read (the event loop runs the scans and kills meanwhile) and
 * about 0.2 ms of hashing, so a big file never blocks the agent. Null when the file is shorter than
 * `TLSH_MIN_BYTES` or too uniform. Throws when the file cannot be read.
 */
export async function digestFile(file: string, maxBytes = SIMILARITY_MAX_BYTES): Promise<Tlsh | null> {
  const handle = await open(file, 'r');
  try {
    const builder = new TlshBuilder();
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let left = maxBytes;
    while (left > 0) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, left), null);
      if (bytesRead === 0) break;
      builder.update(buffer.subarray(0, bytesRead));
      left -= bytesRead;
    }
    return builder.digest();
  } finally {
    await handle.close();
  }
}
