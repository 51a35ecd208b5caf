/**
 * `npm run bench:agent-digests [-- --runs 5 --file F …]`: what reading one new executable costs the
 * agent, per digest, in ms per file and ms per MB: its SHA-256 (fingerprint.ts `streamSha256`, the
 * whole file), its similarity digest (similarity.ts `digestFile`, the first 32 MiB; left out when the
 * agent has none) and its version resource (pe-identity.ts `readPeVersionIdentity`, the PE headers and
 * the resource section only; null for a file that is not a PE). Unlike the other agent benches this
 * one imports the agent's three digest functions: they are pure reads of one file, and only timing
 * them alone tells their cost apart (`bench:agent-scan` times the running agent end to end).
 *
 * Files (default): Windows' official node.exe (the agent's Windows build keeps it), a 64 MiB file of
 * random bytes, /usr/bin's largest ELF; each read once to have it in the page cache, then `--runs`
 * times per digest: the median wall time and the CPU this process used (`process.cpuUsage`) per run,
 * so a figure bound by the disk shows as wall ≫ CPU. Prints JSON.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { repoRoot } from '@concurso/testkit';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    file: { type: 'string', multiple: true },
  },
});
const RUNS = Math.max(1, Number(values.runs));

type Digest = (file: string) => Promise<unknown>;
const agentModule = async <T>(name: string): Promise<T | null> => {
  const file = path.join(repoRoot, 'agent', 'src', name);
  return existsSync(file) ? ((await import(pathToFileURL(file).href)) as T) : null;
};
const fingerprint = await agentModule<{ streamSha256: Digest }>('fingerprint.ts');
const similarity = await agentModule<{ digestFile: Digest; SIMILARITY_MAX_BYTES?: number }>('similarity.ts');
const pe = await agentModule<{ readPeVersionIdentity: Digest }>('pe-identity.ts');
const digests: Array<[string, Digest | undefined]> = [
  ['sha256', fingerprint?.streamSha256],
  ['tlsh', similarity?.digestFile],
  ['pe_version_resource', pe?.readPeVersionIdentity],
];

/** /usr/bin's largest regular ELF file. */
async function largestElf(): Promise<string | null> {
  let best: { file: string; size: number } | null = null;
  for (const name of await readdir('/usr/bin')) {
    const file = path.join('/usr/bin', name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile() || (best && info.size <= best.size)) continue;
    const head = (await readFile(file).catch(() => Buffer.alloc(0))).subarray(0, 4).toString('latin1');
    if (head === '\x7fELF') best = { file, size: info.size };
  }
  return best?.file ?? null;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const tmp = await mkdtemp(path.join(os.tmpdir(), 'bench-digests-'));
try {
  const random = path.join(tmp, 'aleatorio.bin');
  await writeFile(random, randomBytes(64 * 1024 * 1024));
  const nodeExe = path.join(
    repoRoot,
    'agent',
    '.cache',
    'node-20.20.2',
    'win-x64',
    'package',
    'bin',
    'node.exe',
  );
  const files =
    values.file?.map((file) => path.resolve(file)) ??
    [existsSync(nodeExe) ? nodeExe : null, random, await largestElf()].filter((f): f is string => f !== null);

  const rows = [];
  for (const file of files) {
    const mb = (await stat(file)).size / (1024 * 1024);
    await readFile(file); // into the page cache: the figures are CPU, not the disk
    const row: Record<string, unknown> = { file: path.basename(file), mb: Number(mb.toFixed(1)) };
    for (const [name, digest] of digests) {
      if (!digest) {
        row[name] = 'no disponible en este árbol';
        continue;
      }
      const wall: number[] = [];
      const cpu: number[] = [];
      let answer: unknown;
      for (let run = 0; run < RUNS; run++) {
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        answer = await digest(file);
        wall.push(performance.now() - t0);
        const used = process.cpuUsage(cpu0);
        cpu.push((used.user + used.system) / 1000);
      }
      row[name] = {
        wall_ms: Number(median(wall).toFixed(2)),
        cpu_ms: Number(median(cpu).toFixed(2)),
        wall_ms_per_mb: Number((median(wall) / mb).toFixed(3)),
        cpu_ms_per_mb: Number((median(cpu) / mb).toFixed(3)),
        ...(name === 'tlsh' && similarity?.SIMILARITY_MAX_BYTES
          ? {
              cpu_ms_per_mb_read: Number(
                (median(cpu) / Math.min(mb, similarity.SIMILARITY_MAX_BYTES / (1024 * 1024))).toFixed(3),
              ),
            }
          : {}),
        answered: answer === null ? 'null' : 'sí',
      };
    }
    rows.push(row);
  }
  console.log(
    JSON.stringify(
      {
        runs: RUNS,
        files: rows,
        note: 'tlsh lee a lo más los primeros 32 MiB y el recurso de versión solo las cabeceras y la sección de recursos: su ms por MB baja con el tamaño del archivo',
        host: { cpus: os.cpus().length, loadavg: (await readFile('/proc/loadavg', 'utf8')).trim() },
      },
      null,
      2,
    ),
  );
} finally {
  await rm(tmp, { recursive: true, force: true });
}
