/**
 * False positives of the similarity match, measured (agent/src/README.md "Similar files"): every ELF
 * file of this machine's /usr/bin and /usr/lib (and the project's Windows binaries: node.exe from the
 * build cache, proclist.exe compiled here) is digested as the agent does it, mapped to its Debian
 * source package, and no two files of different source packages may be one program, by TLSH distance
 * within `SIMILAR_MAX_DISTANCE` or by equal build-ids, unless their bytes are the same (one program
 * shipped twice). Patched, padded and re-stripped copies of sample programs must still match.
 *
 * Why source packages: Debian splits one build into binary packages (gcc-12, g++-12 and cpp-12 are
 * one compiler's drivers; perl-base and libperl5.36 ship the same XS modules), which are one
 * program's files, not two programs. Files no package owns (a JDK unpacked by hand) are digested but
 * left out of the pairs: nothing says which program they are.
 *
 * Pairs: the TLSH distance adds 12 per step of its length byte `L` beyond one, so a pair whose `L`
 * values are two or more apart is at 24 or more, beyond the threshold (12): sorted by `L`, each file
 * is compared with its neighbours within one step only. Every pair is thereby decided; the printed
 * figures give both counts.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  type Dirent,
} from 'node:fs';
import { copyFile, lstat, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parsedDistance, parseTlsh, SIMILAR_MAX_DISTANCE, type ParsedTlsh } from '@concurso/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { readBuildId } from '../src/build-id.js';
import { SimilarPrograms } from '../src/similar-programs.js';
import { digestFile, SIMILARITY_MAX_BYTES, tlshOf } from '../src/similarity.js';
import { cleanUp, tempDir } from './helpers/processes.js';

const run = promisify(execFile);
const agentDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

afterAll(cleanUp);

interface Digested {
  file: string;
  size: number;
  /** Debian source package, or null when no package owns the file. */
  source: string | null;
  tlsh: ParsedTlsh | null;
  buildId: string | null;
}

/**
 * Every regular file (not links) under `dirs` that starts with `magic`, once per inode. Synchronous
 * on purpose: tens of thousands of small stats and reads, where a promise each costs more than the call.
 */
function filesStartingWith(dirs: string[], magic: Buffer): { file: string; size: number }[] {
  const found: { file: string; size: number }[] = [];
  const seen = new Set<string>();
  const head = Buffer.alloc(magic.length);
  const walk = (dir: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      if (!entry.isFile()) continue;
      try {
        const info = lstatSync(file);
        const inode = `${info.dev}:${info.ino}`;
        if (seen.has(inode) || info.size < 512) continue;
        seen.add(inode);
        const fd = openSync(file, 'r');
        try {
          readSync(fd, head, 0, magic.length, 0);
        } finally {
          closeSync(fd);
        }
        if (head.equals(magic)) found.push({ file, size: info.size });
      } catch {
        continue;
      }
    }
  };
  for (const dir of dirs) walk(dir);
  return found;
}

/**
 * The agent's likeness of each file (`digestFile`, `readBuildId`), computed by `children` child
 * processes (helpers/digest-worker.ts) over interleaved shares of the list, answered in its order.
 */
async function digestInChildren(
  files: string[],
  children: number,
): Promise<{ tlsh: string | null; buildId: string | null }[]> {
  const worker = path.join(agentDir, 'test', 'helpers', 'digest-worker.ts');
  const shares = Array.from({ length: children }, (_, k) => files.filter((_, i) => i % children === k));
  const answers = await Promise.all(
    shares.map(
      (share) =>
        new Promise<{ tlsh: string | null; buildId: string | null }[]>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', worker], {
            stdio: ['pipe', 'pipe', 'inherit'],
          });
          let out = '';
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
          child.on('error', reject);
          child.on('exit', (code) =>
            code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`digest-worker: código ${code}`)),
          );
          child.stdin.end(JSON.stringify(share));
        }),
    ),
  );
  return files.map((_, i) => answers[i % children]![Math.floor(i / children)]!);
}

/**
 * File path → Debian source package, from dpkg's own records (/var/lib/dpkg/status for each binary
 * package's `Source:`, /var/lib/dpkg/info/*.list for its files): a read of a few MB instead of one
 * `dpkg -S` per file. Merged /usr: a listed /bin/x is also /usr/bin/x.
 */
function dpkgSources(): Map<string, string> {
  const sourceOf = new Map<string, string>();
  for (const block of readFileSync('/var/lib/dpkg/status', 'utf8').split('\n\n')) {
    const name = /^Package: (\S+)$/m.exec(block)?.[1];
    if (name) sourceOf.set(name, /^Source: (\S+)/m.exec(block)?.[1] ?? name);
  }
  const owner = new Map<string, string>();
  const info = '/var/lib/dpkg/info';
  for (const list of readdirSync(info)) {
    if (!list.endsWith('.list')) continue;
    const binary = list.slice(0, -'.list'.length).split(':')[0]!;
    const source = sourceOf.get(binary) ?? binary;
    for (const line of readFileSync(path.join(info, list), 'utf8').split('\n')) {
      if (!line) continue;
      owner.set(line, source);
      const merged = /^\/(bin|sbin|lib|lib64)\//.exec(line);
      if (merged) owner.set(`/usr${line}`, source);
    }
  }
  return owner;
}

async function sha256(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

/** Deterministic "random" bytes (xorshift), so a failure can be reproduced. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** The project's Windows binaries: node.exe from the build cache (when built), proclist.exe compiled here. */
async function windowsBinaries(): Promise<{ file: string; size: number }[]> {
  const found: { file: string; size: number }[] = [];
  const nodeExe = path.join(agentDir, '.cache', 'node-20.20.2', 'win-x64', 'package', 'bin', 'node.exe');
  if (existsSync(nodeExe)) found.push({ file: nodeExe, size: (await lstat(nodeExe)).size });
  else console.log(`node.exe no está en la caché de build (${nodeExe}): npm run agent:build la llena`);
  const proclist = path.join(await tempDir('similarity-pe-'), 'proclist.exe');
  try {
    await run('x86_64-w64-mingw32-gcc', [
      '-O2',
      '-municode',
      '-s',
      '-Wl,--no-insert-timestamp',
      '-o',
      proclist,
      path.join(agentDir, 'native', 'proclist.c'),
    ]);
    found.push({ file: proclist, size: (await lstat(proclist)).size });
  } catch (error) {
    console.log(`proclist.exe no se pudo compilar: ${String(error).split('\n')[0]}`);
  }
  return found;
}

describe('similarity: no two programs of different packages match (this machine)', () => {
  it('digests every ELF file of /usr/bin and /usr/lib; 0 cross-package matches, copies match', async () => {
    const started = performance.now();
    const elf = filesStartingWith(['/usr/bin', '/usr/lib'], Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
    const windows = await windowsBinaries();
    const owner = dpkgSources();
    const listed = performance.now();

    const all = [...elf, ...windows];
    const likenesses = await digestInChildren(
      all.map(({ file }) => file),
      2,
    );
    let bytes = 0;
    const digested: Digested[] = all.map(({ file, size }, i) => {
      bytes += Math.min(size, SIMILARITY_MAX_BYTES);
      const { tlsh, buildId } = likenesses[i]!;
      const windowsFile = windows.some((w) => w.file === file);
      return {
        file,
        size,
        // The project's own Windows binaries are each a program of their own.
        source: windowsFile ? `(proyecto) ${path.basename(file)}` : (owner.get(file) ?? null),
        tlsh: tlsh ? parseTlsh(tlsh) : null,
        buildId,
      };
    });
    const digestedAt = performance.now();
    const owned = digested.filter((d) => d.source !== null && d.tlsh !== null);
    expect(elf.length).toBeGreaterThan(500);
    expect(owned.length).toBeGreaterThan(500);

    // TLSH pairs, sorted by L: only neighbours within one L step can be within the threshold.
    owned.sort((a, b) => a.tlsh!.l - b.tlsh!.l);
    for (const d of owned) expect(d.tlsh!.l, 'L lejos del borde circular').toBeLessThan(250);
    let compared = 0;
    const candidates: [number, Digested, Digested][] = [];
    for (let i = 0; i < owned.length; i++) {
      const a = owned[i]!;
      for (let j = i + 1; j < owned.length && owned[j]!.tlsh!.l - a.tlsh!.l <= 1; j++) {
        compared += 1;
        const b = owned[j]!;
        const distance = parsedDistance(a.tlsh!, b.tlsh!);
        if (distance <= SIMILAR_MAX_DISTANCE) candidates.push([distance, a, b]);
      }
    }
    const bySource = new Map<string, number>();
    for (const d of owned) bySource.set(d.source!, (bySource.get(d.source!) ?? 0) + 1);
    const allPairs = (owned.length * (owned.length - 1)) / 2;
    let samePackagePairs = 0;
    for (const n of bySource.values()) samePackagePairs += (n * (n - 1)) / 2;

    // Build-ids: equal ids of two packages.
    const byBuildId = new Map<string, Digested[]>();
    for (const d of digested) {
      if (d.source === null || d.buildId === null) continue;
      byBuildId.set(d.buildId, [...(byBuildId.get(d.buildId) ?? []), d]);
    }
    for (const group of byBuildId.values()) {
      for (let i = 0; i < group.length; i++)
        for (let j = i + 1; j < group.length; j++)
          if (group[i]!.source !== group[j]!.source) candidates.push([-1, group[i]!, group[j]!]);
    }

    const cross: string[] = [];
    const identical: string[] = [];
    const within: string[] = [];
    for (const [distance, a, b] of candidates) {
      const line = `${distance < 0 ? 'build-id' : `d=${distance}`} ${a.file} (${a.source}) ~ ${b.file} (${b.source})`;
      if (a.source === b.source) within.push(line);
      else if ((await sha256(a.file)) === (await sha256(b.file))) identical.push(line);
      else cross.push(line);
    }
    const done = performance.now();

    console.log(
      [
        `Similitud (TLSH ≤ ${SIMILAR_MAX_DISTANCE} o mismo build-id), esta máquina:`,
        `  archivos ELF: ${elf.length}; de Windows del proyecto: ${windows.map((w) => path.basename(w.file)).join(', ') || 'ninguno'}; con paquete y digest: ${owned.length}; sin paquete: ${digested.filter((d) => d.source === null).length}; sin digest (muy chicos o uniformes): ${digested.filter((d) => d.tlsh === null).length}`,
        `  paquetes fuente: ${bySource.size}; pares en total: ${allPairs}; de paquetes distintos: ${allPairs - samePackagePairs}`,
        `  pares comparados (L a un paso o menos; el resto está a 24 o más): ${compared}`,
        `  coincidencias entre paquetes distintos: ${cross.length}`,
        ...cross.map((l) => `    ${l}`),
        `  mismos bytes en dos paquetes (un programa, no cuentan): ${identical.length}`,
        ...identical.map((l) => `    ${l}`),
        `  coincidencias dentro de un paquete: ${within.length}`,
        ...within.map((l) => `    ${l}`),
        `  tiempo: listar ${((listed - started) / 1000).toFixed(1)} s, digerir ${(bytes / 1e6).toFixed(0)} MB en ${((digestedAt - listed) / 1000).toFixed(1)} s (${((digestedAt - listed) / (bytes / 1e6)).toFixed(1)} ms/MB), comparar ${((done - digestedAt) / 1000).toFixed(1)} s`,
      ].join('\n'),
    );
    expect(cross).toEqual([]);
  }, 240_000);

  it('a one-byte-changed, a 1 %-appended and a re-stripped copy of sample programs match their original', async () => {
    const dir = await tempDir('similarity-copies-');
    const samples = [
      '/usr/bin/ls',
      '/usr/bin/gcc-12',
      '/usr/bin/perl',
      '/usr/bin/git',
      '/usr/bin/python3.11',
    ].filter((file) => existsSync(file));
    const nodeExe = path.join(agentDir, '.cache', 'node-20.20.2', 'win-x64', 'package', 'bin', 'node.exe');
    if (existsSync(nodeExe)) samples.push(nodeExe);
    // A program of our own with debug information: `strip` removes much of it (the build-id stays).
    const source = path.join(dir, 'programa.c');
    await writeFile(
      source,
      '#include <stdio.h>\nstatic int twice(int x) { return 2 * x; }\nint main(int c, char **v) { for (int i = 0; i < c; i++) printf("%s %d\\n", v[i], twice(i)); return 0; }\n',
    );
    const debug = path.join(dir, 'programa-g');
    // The same bytes every run: the debug information names the folder it was built in, a new temp
    // folder each time, which moved the 1 %-appended copy's distance between runs (11 to 18).
    await run('gcc', ['-g', '-O1', `-fdebug-prefix-map=${dir}=.`, '-o', debug, source]);
    samples.push(debug);
    expect(samples.length).toBeGreaterThanOrEqual(4);

    const lines: string[] = [];
    for (const [index, original] of samples.entries()) {
      const bytes = await readFile(original);
      // The original's likeness, digested once: what the agent learns and what each copy is measured against.
      const originalDigest = tlshOf(bytes.subarray(0, SIMILARITY_MAX_BYTES));
      const originalId = await readBuildId(original);
      const known = new SimilarPrograms();
      known.learn({ tlsh: originalDigest, buildId: originalId }, 'bloqueado');
      const oneByte = Buffer.from(bytes);
      // Within the digested prefix (a change past it leaves the digest as it was, distance 0).
      oneByte[Math.floor(Math.min(bytes.length, SIMILARITY_MAX_BYTES) / 2)]! ^= 0xff;
      const copies: [string, Buffer][] = [
        ['un byte', oneByte],
        ['1 % más', Buffer.concat([bytes, noise(Math.ceil(bytes.length / 100), index + 7)])],
      ];
      if (bytes.readUInt32BE(0) === 0x7f454c46) {
        const stripped = path.join(dir, `strip-${index}`);
        await copyFile(original, stripped);
        await run('strip', [stripped]);
        copies.push(['strip', await readFile(stripped)]);
      }
      const originalTlsh = parseTlsh(originalDigest!);
      for (const [what, copy] of copies) {
        const file = path.join(dir, `copia-${index}`);
        await writeFile(file, copy);
        const likeness = { tlsh: await digestFile(file), buildId: await readBuildId(file) };
        const distance = parsedDistance(originalTlsh, parseTlsh(likeness.tlsh!));
        const sameId = originalId !== null && likeness.buildId === originalId;
        lines.push(
          `  ${path.basename(original)} (${bytes.length} B), ${what}: TLSH d=${distance}${sameId ? ', mismo build-id' : ''}`,
        );
        expect(known.match(likeness)?.blocked, `${original}, ${what}`).toBe('bloqueado');
        // The digest alone must catch every copy (a build-id can be zeroed), but a debug build stripped
        // of its symbols: that one is the build-id's.
        if (!(original === debug && what === 'strip'))
          expect(distance).toBeLessThanOrEqual(SIMILAR_MAX_DISTANCE);
        else expect(sameId).toBe(true);
      }
    }
    console.log(['Copias modificadas de programas de muestra:', ...lines].join('\n'));
  }, 60_000);
});
