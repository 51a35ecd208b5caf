/**
 * `npm run bench:similarity [-- --samples 40]`: the measurement that picked the agent's similarity
 * digest and its threshold (agent/src/README.md "Similar files"; the false-positive test over the
 * whole machine is agent/test/similarity-false-positives.test.ts). On `--samples` ELF programs of
 * /usr/bin spread over sizes (20 KB to 8 MB), for TLSH (the agent's streamed similarity.ts and the
 * `tlsh` package it equals) and ssdeep (`ssdeep.js`):
 *
 * - cost: ms per MB of each (CPU of this process, page cache warm);
 * - copies: the TLSH distance (0 = same; the agent matches at `SIMILAR_MAX_DISTANCE` or less) and the
 *   ssdeep score (100 = same; 0 = nothing in common) of a one-byte-changed copy, a copy with 1 % of
 *   random bytes appended and one with 1 % of zeros appended, by file size;
 * - programs: for each sample, the nearest sample of another Debian source package (TLSH: smallest
 *   distance; ssdeep: highest score).
 *
 * Like bench:agent-digests it imports the agent's digest (a pure function of bytes). Prints JSON.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { SIMILAR_MAX_DISTANCE, tlshDistance } from '@concurso/shared';
import { repoRoot } from '@concurso/testkit';

const { values } = parseArgs({ options: { samples: { type: 'string', default: '40' } } });
const SAMPLES = Math.max(4, Number(values.samples));

const require = createRequire(import.meta.url);
const referenceTlsh = require('tlsh') as (data: string) => string;
const ssdeep = require('ssdeep.js') as {
  digest(data: string): string;
  similarity(a: string, b: string): number;
};
const { tlshOf } = (await import(
  pathToFileURL(path.join(repoRoot, 'agent', 'src', 'similarity.ts')).href
)) as {
  tlshOf: (data: Uint8Array) => string | null;
};

/** Deterministic noise (xorshift), so two runs digest the same copies. */
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

/** Debian source package of each file dpkg lists (merged /usr: /bin/x is /usr/bin/x). */
function sources(): Map<string, string> {
  const sourceOf = new Map<string, string>();
  for (const block of readFileSync('/var/lib/dpkg/status', 'utf8').split('\n\n')) {
    const name = /^Package: (\S+)$/m.exec(block)?.[1];
    if (name) sourceOf.set(name, /^Source: (\S+)/m.exec(block)?.[1] ?? name);
  }
  const owner = new Map<string, string>();
  for (const list of readdirSync('/var/lib/dpkg/info')) {
    if (!list.endsWith('.list')) continue;
    const binary = list.slice(0, -5).split(':')[0]!;
    for (const line of readFileSync(path.join('/var/lib/dpkg/info', list), 'utf8').split('\n')) {
      if (!line) continue;
      owner.set(line, sourceOf.get(binary) ?? binary);
      if (/^\/(bin|sbin)\//.test(line)) owner.set(`/usr${line}`, sourceOf.get(binary) ?? binary);
    }
  }
  return owner;
}

const owner = sources();
const seen = new Set<string>();
const candidates: { file: string; size: number; source: string }[] = [];
for (const name of readdirSync('/usr/bin')) {
  const file = path.join('/usr/bin', name);
  const info = statSync(file, { throwIfNoEntry: false });
  const source = owner.get(file);
  if (!info?.isFile() || !source || info.size < 20_000 || info.size > 8e6) continue;
  if (seen.has(`${info.dev}:${info.ino}`)) continue;
  seen.add(`${info.dev}:${info.ino}`);
  if (readFileSync(file).subarray(0, 4).toString('latin1') === '\x7fELF')
    candidates.push({ file, size: info.size, source });
}
candidates.sort((a, b) => a.size - b.size);
const step = candidates.length / SAMPLES;
const samples = Array.from(
  { length: Math.min(SAMPLES, candidates.length) },
  (_, i) => candidates[Math.floor(i * step)]!,
);

const cpu = () => process.cpuUsage().user + process.cpuUsage().system;
const cost = { tlsh_agent_us: 0, tlsh_package_us: 0, ssdeep_us: 0, bytes: 0 };
const rows: Record<string, unknown>[] = [];
const digests: { source: string; tlsh: string; ssdeep: string }[] = [];
for (const [index, { file, size, source }] of samples.entries()) {
  const bytes = readFileSync(file);
  const latin1 = bytes.toString('latin1');
  let t = cpu();
  const mine = tlshOf(bytes)!;
  cost.tlsh_agent_us += cpu() - t;
  t = cpu();
  const theirs = referenceTlsh(latin1);
  cost.tlsh_package_us += cpu() - t;
  t = cpu();
  const fuzzy = ssdeep.digest(latin1);
  cost.ssdeep_us += cpu() - t;
  cost.bytes += size;
  if (mine !== theirs) throw new Error(`${file}: el TLSH del agente no es el del paquete tlsh`);
  digests.push({ source, tlsh: mine, ssdeep: fuzzy });

  const oneByte = Buffer.from(bytes);
  oneByte[Math.floor(size / 2)]! ^= 0xff;
  const copies = {
    one_byte: oneByte,
    random_1pct: Buffer.concat([bytes, noise(Math.ceil(size / 100), index + 1)]),
    zeros_1pct: Buffer.concat([bytes, Buffer.alloc(Math.ceil(size / 100))]),
  };
  const row: Record<string, unknown> = { file, size, source };
  for (const [what, copy] of Object.entries(copies)) {
    row[`${what}_tlsh`] = tlshDistance(mine, tlshOf(copy)!);
    row[`${what}_ssdeep`] = ssdeep.similarity(fuzzy, ssdeep.digest(copy.toString('latin1')));
  }
  rows.push(row);
}
for (const [i, row] of rows.entries()) {
  let nearest = Infinity;
  let best = 0;
  for (const [j, other] of digests.entries()) {
    if (j === i || other.source === digests[i]!.source) continue;
    nearest = Math.min(nearest, tlshDistance(digests[i]!.tlsh, other.tlsh));
    best = Math.max(best, ssdeep.similarity(digests[i]!.ssdeep, other.ssdeep));
  }
  row.other_program_tlsh_min = nearest;
  row.other_program_ssdeep_max = best;
}

const mb = cost.bytes / 1e6;
const worst = (key: string) => Math.max(...rows.map((r) => r[key] as number));
const lowest = (key: string) => Math.min(...rows.map((r) => r[key] as number));
console.log(
  JSON.stringify(
    {
      samples: rows.length,
      mb: Number(mb.toFixed(1)),
      ms_per_mb: {
        tlsh_agent: Number((cost.tlsh_agent_us / 1000 / mb).toFixed(1)),
        tlsh_package: Number((cost.tlsh_package_us / 1000 / mb).toFixed(1)),
        ssdeep: Number((cost.ssdeep_us / 1000 / mb).toFixed(1)),
      },
      threshold_tlsh: SIMILAR_MAX_DISTANCE,
      tlsh_copies_worst: {
        one_byte: worst('one_byte_tlsh'),
        random_1pct: worst('random_1pct_tlsh'),
        zeros_1pct: worst('zeros_1pct_tlsh'),
      },
      tlsh_other_program_nearest: lowest('other_program_tlsh_min'),
      ssdeep_copies_lowest: {
        one_byte: lowest('one_byte_ssdeep'),
        random_1pct: lowest('random_1pct_ssdeep'),
        zeros_1pct: lowest('zeros_1pct_ssdeep'),
      },
      ssdeep_other_program_highest: worst('other_program_ssdeep_max'),
      rows,
    },
    null,
    2,
  ),
);
