/**
 * How close two executables' similarity digests are (agent/README.md, «Copias modificadas»): the TLSH
 * distance (Trend Micro's locality-sensitive hash, the standard 70-hex-digit form without a version
 * prefix: checksum, length byte, quartile ratios, 32 body bytes) and the threshold under which two files
 * are the same program. One place for agent and server: the agent ends a file within
 * `SIMILAR_MAX_DISTANCE` of a blocked program's known file, and the server tells the admin which other
 * programs of the contest lie that close before a block applies («también coincide con: …»). The
 * agent computes the digests (agent/src/similarity.ts); this file only compares them, so it needs no
 * file access and runs anywhere.
 */

/** A TLSH digest: 70 hex digits (the agent sends them upper-case). */
export type Tlsh = string;

/**
 * Largest distance at which two executables are the same program (TLSH units, `tlshDistance`; a
 * distance of at most this matches). Chosen by measurement with the agent's digests
 * (agent/test/similarity-false-positives.test.ts prints the figures; bench/similarity.ts): over the
 * ELF files of this machine's /usr/bin and /usr/lib owned by a Debian package, the closest pair of
 * files of two different source packages lies at 18 (gcc's LTO plugin, native and MinGW builds), the
 * next at 23 (two Go programs); byte-identical files are one program and set aside. A one-byte patch
 * moves a file by 0–4, 1 % of random bytes appended by 1–15 for a file over 100 KB (up to 36 for a
 * 15 KB library), `strip` of a Debian binary by 0. 12 keeps a margin of 6 below the closest two
 * programs while every patched, padded or re-stripped sample program matches. A file stripped of its
 * symbols moves far (the symbol table is much of it): its ELF build-id, which `strip` keeps, catches
 * it. Below 24 on purpose: a length difference of two `L` steps (about 20 % in size) alone adds 24,
 * so files of far sizes never match and a comparison only needs neighbours in size.
 */
export const SIMILAR_MAX_DISTANCE = 12;

/** Whether a string is a digest `tlshDistance` can read (70 hex digits, either case). */
export function isTlsh(value: string): boolean {
  return /^[0-9A-Fa-f]{70}$/.test(value);
}

/** A digest's fields, parsed once for many comparisons (`tlshDistance` parses on each call). */
export interface ParsedTlsh {
  checksum: number;
  /** TLSH's length byte: the log of the file's length in steps of about 10 %. */
  l: number;
  q1: number;
  q2: number;
  /** The 32 body bytes, in string order. */
  body: Uint8Array;
}

/** A byte with its two nibbles swapped (TLSH writes its header bytes so). */
function swap(byte: number): number {
  return ((byte & 0x0f) << 4) | ((byte & 0xf0) >> 4);
}

/**
 * Parses a digest.
 * @throws Error when `digest` is not 70 hex digits (check with `isTlsh` first).
 */
export function parseTlsh(digest: Tlsh): ParsedTlsh {
  if (!isTlsh(digest)) throw new Error(`no es un TLSH: ${digest.slice(0, 80)}`);
  const byte = (i: number) => parseInt(digest.slice(2 * i, 2 * i + 2), 16);
  const q = swap(byte(2));
  const body = new Uint8Array(32);
  for (let i = 0; i < 32; i++) body[i] = byte(3 + i);
  return { checksum: byte(0), l: swap(byte(1)), q1: q & 0x0f, q2: q >> 4, body };
}

/** Bit-pair distance of two body bytes (a difference of 3 between two pairs counts 6); built on first use. */
let bitPairs: Uint8Array | undefined;
function bitPairTable(): Uint8Array {
  if (bitPairs) return bitPairs;
  const table = new Uint8Array(256 * 256);
  for (let i = 0; i < 256; i++) {
    for (let j = 0; j < 256; j++) {
      let diff = 0;
      for (let z = 0; z < 4; z++) {
        const d = Math.abs(((i >> (2 * z)) & 3) - ((j >> (2 * z)) & 3));
        diff += d === 3 ? 6 : d;
      }
      table[i * 256 + j] = diff;
    }
  }
  bitPairs = table;
  return table;
}

function modDiff(a: number, b: number, range: number): number {
  const inner = Math.abs(a - b);
  return Math.min(inner, range - inner);
}

/**
 * TLSH's distance of two parsed digests, with its length term (0 for the same file; unrelated
 * executables score 100 to 300). The length term is 0, 1, or 12 per step when the `L` values are two
 * or more steps apart, so `|a.l − b.l| ≥ 2` alone puts a pair beyond `SIMILAR_MAX_DISTANCE`.
 */
export function parsedDistance(a: ParsedTlsh, b: ParsedTlsh): number {
  const pairs = bitPairTable();
  const l = modDiff(a.l, b.l, 256);
  let diff = l <= 1 ? l : l * 12;
  const q1 = modDiff(a.q1, b.q1, 16);
  diff += q1 <= 1 ? q1 : (q1 - 1) * 12;
  const q2 = modDiff(a.q2, b.q2, 16);
  diff += q2 <= 1 ? q2 : (q2 - 1) * 12;
  if (a.checksum !== b.checksum) diff += 1;
  for (let i = 0; i < 32; i++) diff += pairs[a.body[i]! * 256 + b.body[i]!]!;
  return diff;
}

/**
 * TLSH's distance of two digests (see `parsedDistance`).
 * @throws Error on a malformed digest.
 */
export function tlshDistance(a: Tlsh, b: Tlsh): number {
  return parsedDistance(parseTlsh(a), parseTlsh(b));
}

/**
 * Whether two digests are the same program: both readable TLSH digests within
 * `SIMILAR_MAX_DISTANCE`. Never throws: anything else (another algorithm, a malformed string) is not
 * similar.
 */
export function isSimilarTlsh(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b || !isTlsh(a) || !isTlsh(b)) return false;
  return tlshDistance(a, b) <= SIMILAR_MAX_DISTANCE;
}
