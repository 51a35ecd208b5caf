/**
 * The similarity digest, the build-id and their caches (agent/src/README.md "Similar files"): the
 * streamed TLSH is the `tlsh` package's digit for digit, the build-id is readelf's, a file is read
 * once while unchanged, and the known files match within the threshold and forget what is no longer
 * blocked.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { SIMILAR_MAX_DISTANCE, tlshDistance } from '@concurso/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIdInNotes, readBuildId } from '../src/build-id.js';
import { LikenessReader } from '../src/likeness.js';
import { LEARNED_LIKENESS_MAX, SimilarPrograms } from '../src/similar-programs.js';
import { digestFile, TlshBuilder, tlshOf } from '../src/similarity.js';
import { cleanUp, tempDir } from './helpers/processes.js';

const run = promisify(execFile);
/** The reference: the `tlsh` npm package (one string of the whole file in, its digest out). */
const referenceTlsh = createRequire(import.meta.url)('tlsh') as (data: string) => string;

afterEach(cleanUp);

const SAMPLES = ['/bin/sleep', '/bin/ls', '/usr/bin/gcc-12', '/usr/bin/perl'];

/** Deterministic bytes with some structure (the digest needs variety, not randomness). */
function textLike(length: number): Buffer {
  const words = ['programa', 'bloqueado', 'concurso', 'equipo', 'agente', 'huella', 'similar'];
  let out = '';
  for (let i = 0; out.length < length; i++) out += `${words[(i * 7 + (i >> 3)) % words.length]} ${i} `;
  return Buffer.from(out.slice(0, length));
}

describe('TLSH digest (similarity.ts)', () => {
  it("equals the tlsh package's digest of real executables, whatever the chunk sizes", async () => {
    for (const file of SAMPLES) {
      const bytes = await readFile(file);
      const expected = referenceTlsh(bytes.toString('latin1'));
      expect(tlshOf(bytes), file).toBe(expected);
      // Streamed in odd chunks (1, 3, 4 and 7919 bytes in turn): the sliding window crosses them.
      const builder = new TlshBuilder();
      const sizes = [1, 3, 4, 7919];
      for (let at = 0, k = 0; at < bytes.length; k++) {
        const size = sizes[k % sizes.length]!;
        builder.update(bytes.subarray(at, at + size));
        at += size;
      }
      expect(builder.digest(), `${file} en trozos`).toBe(expected);
      expect(await digestFile(file)).toBe(expected);
    }
  });

  it('answers null for fewer than 512 bytes or too uniform a file, never a digest', async () => {
    expect(tlshOf(textLike(511))).toBeNull();
    expect(tlshOf(textLike(512))).toBe(referenceTlsh(textLike(512).toString('latin1')));
    expect(tlshOf(Buffer.alloc(100_000, 0x41))).toBeNull();
  });

  it('digests only the first maxBytes of a file: bytes after them change nothing', async () => {
    const file = path.join(await tempDir(), 'grande');
    await writeFile(file, textLike(200_000));
    const before = await digestFile(file, 100_000);
    await appendFile(file, textLike(50_000).reverse());
    expect(await digestFile(file, 100_000)).toBe(before);
    expect(await digestFile(file)).not.toBe(before);
  });
});

describe('ELF build-id (build-id.ts)', () => {
  it("is readelf's Build ID, and null for a file that is not ELF", async () => {
    for (const file of SAMPLES) {
      const { stdout } = await run('readelf', ['-n', file]);
      expect(await readBuildId(file), file).toBe(/Build ID: ([0-9a-f]+)/.exec(stdout)![1]);
    }
    const text = path.join(await tempDir(), 'texto');
    await writeFile(text, textLike(4096));
    expect(await readBuildId(text)).toBeNull();
    expect(await readBuildId(path.join(path.dirname(text), 'no-existe'))).toBeNull();
  });

  it('reads a note after others, aligned to 4 or 8, in either byte order', () => {
    const note = (name: string, type: number, desc: Buffer, align: number, le: boolean) => {
      const pad = (n: number) => Math.ceil(n / align) * align;
      const nameBytes = Buffer.from(`${name}\0`);
      const out = Buffer.alloc(12 + pad(nameBytes.length) + pad(desc.length));
      const u32 = (v: number, at: number) => (le ? out.writeUInt32LE(v, at) : out.writeUInt32BE(v, at));
      u32(nameBytes.length, 0);
      u32(desc.length, 4);
      u32(type, 8);
      nameBytes.copy(out, 12);
      desc.copy(out, 12 + pad(nameBytes.length));
      return out;
    };
    const id = Buffer.from('0123456789abcdef0123456789abcdef01234567', 'hex');
    for (const align of [4, 8]) {
      for (const le of [true, false]) {
        const notes = Buffer.concat([
          note('GNU', 5, Buffer.alloc(12), align, le),
          note('GNU', 3, id, align, le),
        ]);
        expect(buildIdInNotes(notes, le, align)).toBe(id.toString('hex'));
      }
    }
    // Another vendor's note of type 3 is not a build-id; a truncated note answers null.
    expect(buildIdInNotes(note('Go', 3, id, 4, true), true, 4)).toBeNull();
    expect(buildIdInNotes(note('GNU', 3, id, 4, true).subarray(0, 20), true, 4)).toBeNull();
  });
});

/** Pids no process has (above Linux's pid_max): no `/proc/<pid>/exe`, only the path is read. */
let ghostPid = 900_000_000;
const ofFile = (reader: LikenessReader, file: string) =>
  reader.ofProcess({ pid: ghostPid++, ppid: 1, name: path.basename(file), path: file });

describe('LikenessReader (likeness.ts)', () => {
  it('reads a file once while it is unchanged, again when it changes; null when it cannot', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'programa');
    await writeFile(file, await readFile('/bin/ls'));
    const reader = new LikenessReader();
    const first = await ofFile(reader, file);
    expect(first).toEqual({ tlsh: tlshOf(await readFile('/bin/ls')), buildId: await readBuildId('/bin/ls') });
    expect(await Promise.all([ofFile(reader, file), ofFile(reader, file)])).toEqual([first, first]);
    expect(reader.stats.digested).toBe(1);

    await appendFile(file, Buffer.from([1]));
    const after = await ofFile(reader, file);
    expect(reader.stats.digested).toBe(2);
    expect(tlshDistance(after!.tlsh!, first!.tlsh!)).toBeLessThanOrEqual(SIMILAR_MAX_DISTANCE);
    expect(await ofFile(reader, path.join(dir, 'no-existe'))).toBeNull();
    expect(await ofFile(reader, dir)).toBeNull();
  });

  it('digests a file asked for a match before files asked only in the background', async () => {
    const dir = await tempDir();
    const files = await Promise.all(
      ['a', 'b', 'c', 'urgente'].map(async (name, i) => {
        const file = path.join(dir, name);
        await writeFile(file, Buffer.concat([textLike(2_000_000), Buffer.from([i])]));
        return file;
      }),
    );
    const reader = new LikenessReader();
    const order: string[] = [];
    const ask = (file: string, background: boolean) =>
      reader
        .ofProcess({ pid: ghostPid++, ppid: 1, name: path.basename(file), path: file }, background)
        .then(() => order.push(path.basename(file)));
    const background = files.slice(0, 3).map((file) => ask(file, true));
    // Let the first background file start: it finishes, then the urgent one goes before b and c.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await Promise.all([...background, ask(files[3]!, false)]);
    expect(order.indexOf('urgente')).toBeLessThan(order.indexOf('c'));
    expect(order.indexOf('urgente')).toBeLessThanOrEqual(1);
  });
});

describe('SimilarPrograms (similar-programs.ts)', () => {
  it('matches by build-id first, else the nearest digest within the threshold (inclusive)', async () => {
    const ls = (await readFile('/bin/ls')).subarray(0);
    const lsTlsh = tlshOf(ls)!;
    const known = new SimilarPrograms();
    expect(known.match({ tlsh: lsTlsh, buildId: null })).toBeNull();
    known.setFingerprints([{ process: 'bloqueado', sha256: 'a'.repeat(64), tlsh: lsTlsh }]);
    expect(known.size).toBe(1);
    expect(known.match({ tlsh: lsTlsh, buildId: null })).toEqual({
      blocked: 'bloqueado',
      by: 'tlsh',
      distance: 0,
    });
    // A file of another program (another package) is far.
    expect(known.match({ tlsh: tlshOf(await readFile('/usr/bin/perl')), buildId: null })).toBeNull();
    // A fingerprint without digest or build-id adds nothing.
    known.setFingerprints([{ process: 'otro', sha256: 'b'.repeat(64) }]);
    expect(known.size).toBe(0);

    const id = 'ab'.repeat(20);
    known.learn({ tlsh: null, buildId: id }, 'por-id');
    expect(known.match({ tlsh: lsTlsh, buildId: id })).toEqual({
      blocked: 'por-id',
      by: 'build_id',
      distance: 0,
    });
  });

  it('learns at most LEARNED_LIKENESS_MAX files and forgets a program no longer blocked', () => {
    const known = new SimilarPrograms();
    for (let i = 0; i <= LEARNED_LIKENESS_MAX; i++)
      known.learn({ tlsh: null, buildId: i.toString(16).padStart(40, '0') }, i % 2 ? 'impar' : 'par');
    expect(known.size).toBe(LEARNED_LIKENESS_MAX);
    // The oldest (0) was forgotten.
    expect(known.match({ tlsh: null, buildId: '0'.repeat(40) })).toBeNull();
    known.forgetUnless((name) => name === 'impar');
    expect(known.size).toBe(LEARNED_LIKENESS_MAX / 2);
    expect(known.match({ tlsh: null, buildId: (1).toString(16).padStart(40, '0') })?.blocked).toBe('impar');
  });
});
