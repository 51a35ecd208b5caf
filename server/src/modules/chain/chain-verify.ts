import { CHAIN_KINDS, type ChainBreak, type ChainKind, type ChainVerdict } from '@concurso/shared';
import { CHAIN_KIND_SPECS, GENESIS_HASH, contentHash, linkHash, type ChainValue } from './chain-content.js';
import { chainRunner, readChainedRows, type ChainSql } from './chain.repository.js';

/** Chain rows read per page (with their rows, one read per kind): the verification's memory bound. */
const VERIFY_PAGE_ROWS = 1_000;

/** A chain row as read. */
interface ChainRow {
  seq: number | string;
  kind: string;
  ref_id: number | string;
  content_hash: string;
  prev_hash: string;
  hash: string;
}

const isKind = (kind: string): kind is ChainKind => (CHAIN_KINDS as readonly string[]).includes(kind);

/**
 * Recomputes contest `contestId`'s chain (README.md) from its rows and answers the verdict without
 * `contests_id`: `ok` with `count` rows, or the first bad row (`first_bad`) with `count` the rows
 * before it. Reads the head first and checks the chain up to it (rows appended meanwhile wait for the
 * next verification), `VERIFY_PAGE_ROWS` chain rows at a time in `seq` order with their rows read by
 * id, one read per kind: never the contest's whole history in memory.
 */
export async function verifyChain(
  sql: ChainSql,
  contestId: number,
): Promise<Omit<ChainVerdict, 'contests_id'>> {
  const run = chainRunner(sql);
  const [head] = await run<{ seq: number | string; hash: string }>(
    'select seq, hash from contest_chain_heads where contests_id = ?',
    [contestId],
  );
  const last = head ? Number(head.seq) : 0;
  let prev = GENESIS_HASH;
  let count = 0;
  for (;;) {
    const page = await run<ChainRow>(
      'select seq, kind, ref_id, content_hash, prev_hash, hash from contest_chain ' +
        'where contests_id = ? and seq > ? and seq <= ? order by seq limit ?',
      [contestId, count, last, VERIFY_PAGE_ROWS],
    );
    if (page.length === 0) break;
    const refsOf = new Map<ChainKind, number[]>();
    for (const link of page) {
      if (!isKind(link.kind)) continue;
      const refs = refsOf.get(link.kind) ?? [];
      refs.push(Number(link.ref_id));
      refsOf.set(link.kind, refs);
    }
    const rowsOf = new Map<ChainKind, Map<number, Record<string, ChainValue>>>();
    for (const [kind, refs] of refsOf) rowsOf.set(kind, await readChainedRows(run, kind, refs));
    for (const link of page) {
      const seq = Number(link.seq);
      const ref = Number(link.ref_id);
      const kind = isKind(link.kind) ? link.kind : null;
      const broken = (reason: ChainBreak) => ({ ok: false, count, first_bad: { seq, kind, ref, reason } });
      // A chain row gone (a gap in seq), altered or slipped in does not link to the row before.
      if (seq !== count + 1 || link.prev_hash !== prev || kind === null) return broken('enlace');
      if (linkHash(prev, seq, kind, link.content_hash) !== link.hash) return broken('enlace');
      const spec = CHAIN_KIND_SPECS[kind];
      const row = rowsOf.get(kind)?.get(ref);
      if (spec && !row) return broken('falta');
      // The contest is in the content where the row has one (a status change's is its team's, which
      // may move to another contest later: its link stays in the contest it was made in).
      if (!spec || contentHash(kind, spec.columns, row!) !== link.content_hash) return broken('contenido');
      prev = link.hash;
      count = seq;
    }
  }
  // Its last rows deleted: the chain stops before the head (or the head was set back).
  if (count !== last || prev !== (head?.hash ?? GENESIS_HASH))
    return { ok: false, count, first_bad: { seq: count + 1, kind: null, ref: null, reason: 'cola' } };
  return { ok: true, count };
}
