import type { EntityManager } from '@mikro-orm/mysql';
import type { ChainKind } from '@concurso/shared';
import { ormSql, placeholders, type SqlRunner, type SqlStatement } from '../../db/sql.js';
import { CHAIN_KIND_SPECS, GENESIS_HASH, contentHash, linkHash, type ChainValue } from './chain-content.js';

/*
 * The writes of the contest's chain (README.md): `contest_chain` and `contest_chain_heads`, in the
 * caller's transaction. Every writer locks the contest's head row (`lockChainHead`) and appends after
 * it, so a contest's chain is one line (no fork, no gap) whoever writes. Lock order: a team row before
 * the head (the attempts' group, a judge's toggle, the agents' events), the head before the contest
 * row (a change of the allowed sites): never the other way round.
 */

/** A contest chain's last link: how many rows it has (`seq` of the last one) and that row's hash. */
export interface ChainHead {
  seq: number;
  hash: string;
}

/** Where a chain write runs: a `SqlRunner` (the attempts' bare pool) or an EntityManager (its transaction). */
export type ChainSql = SqlRunner | EntityManager;

/** A runner on `sql`. */
export const chainRunner = (sql: ChainSql): SqlRunner => (typeof sql === 'function' ? sql : ormSql(sql));

/** A head row as read. */
type HeadRow = { contests_id?: number; seq: number | string; hash: string };

const headOf = (row: HeadRow | undefined): ChainHead =>
  row ? { seq: Number(row.seq), hash: String(row.hash) } : { seq: 0, hash: GENESIS_HASH };

/**
 * Contest `contestId`'s head, locked until the caller's transaction ends (created at seq 0 the first
 * time: `on duplicate key update` takes the row's exclusive lock at once, where an `insert ignore`
 * would take a shared one and two writers upgrading it would deadlock).
 */
export async function lockChainHead(sql: ChainSql, contestId: number): Promise<ChainHead> {
  const run = chainRunner(sql);
  await run(
    'insert into contest_chain_heads (contests_id, seq, hash) values (?, 0, ?) on duplicate key update seq = seq',
    [contestId, GENESIS_HASH],
  );
  const rows = await run<HeadRow>(
    'select seq, hash from contest_chain_heads where contests_id = ? for update',
    [contestId],
  );
  return headOf(rows[0]);
}

/**
 * Contest `contestId`'s chain head for the evidence export: `count` rows chained and the last one's
 * `hash` (`GENESIS_HASH` with 0 rows). Not locked: what is committed when it runs. Whoever keeps this
 * pair outside the database can later tell a chain recomputed from its first row on (README.md).
 * @public for the contest's evidence export (not written yet).
 */
export async function chainHead(em: ChainSql, contestId: number): Promise<{ count: number; hash: string }> {
  const rows = await chainRunner(em)<HeadRow>(
    'select seq, hash from contest_chain_heads where contests_id = ?',
    [contestId],
  );
  const head = headOf(rows[0]);
  return { count: head.seq, hash: head.hash };
}

/**
 * Deletes contest `contestId`'s chain and head, with the contest (its chained rows go with it by
 * their foreign keys; the chain has none, migrations/Migration20261204090000.ts says why).
 */
export async function dropChain(sql: ChainSql, contestId: number): Promise<void> {
  const run = chainRunner(sql);
  await run('delete from contest_chain where contests_id = ?', [contestId]);
  await run('delete from contest_chain_heads where contests_id = ?', [contestId]);
}

/** The insert of one chain row and what it leaves as the head. */
function chainRowStatement(
  contestId: number,
  head: ChainHead,
  kind: ChainKind,
  ref: number,
  content: string,
): { statement: SqlStatement; head: ChainHead } {
  const seq = head.seq + 1;
  const hash = linkHash(head.hash, seq, kind, content);
  return {
    statement: {
      sql: 'insert into contest_chain (contests_id, seq, kind, ref_id, content_hash, prev_hash, hash) values (?, ?, ?, ?, ?, ?, ?)',
      params: [contestId, seq, kind, ref, content, head.hash, hash],
    },
    head: { seq, hash },
  };
}

/** The UPDATE that moves contest `contestId`'s head to `head`. */
const headUpdate = (contestId: number, head: ChainHead): SqlStatement => ({
  sql: 'update contest_chain_heads set seq = ?, hash = ? where contests_id = ?',
  params: [head.seq, head.hash, contestId],
});

/**
 * Appends row `ref` of `kind` to contest `contestId`'s chain, in the caller's transaction (the row is
 * written in it already): locks the head, inserts the chain row, moves the head. `content` holds the
 * row's chained columns (`CHAIN_KIND_SPECS[kind].columns`; for a kind without a spec yet, its keys in
 * their order) with their values as written or read back (`canonicalValue` says how each is
 * compared). Four statements: for the writers outside the attempts' group commit (which batches its
 * own, `attemptChainStatements`). Answers the new head.
 * @public for a writer that holds its row's columns (none does yet: `appendRowToChain` reads them back).
 */
export async function appendToChain(
  sql: ChainSql,
  contestId: number,
  kind: ChainKind,
  ref: number,
  content: Readonly<Record<string, ChainValue>>,
): Promise<ChainHead> {
  const run = chainRunner(sql);
  const head = await lockChainHead(run, contestId);
  const columns = CHAIN_KIND_SPECS[kind]?.columns ?? Object.keys(content);
  const next = chainRowStatement(contestId, head, kind, ref, contentHash(kind, columns, content));
  await run(next.statement.sql, next.statement.params);
  const update = headUpdate(contestId, next.head);
  await run(update.sql, update.params);
  return next.head;
}

/**
 * Reads rows `refs` of `kind` as the verification reads them (`CHAIN_KIND_SPECS[kind].select`), by id;
 * each with its `contest`. Empty for a kind without a spec.
 */
export async function readChainedRows(
  sql: SqlRunner,
  kind: ChainKind,
  refs: readonly number[],
): Promise<Map<number, Record<string, ChainValue>>> {
  const spec = CHAIN_KIND_SPECS[kind];
  if (!spec || refs.length === 0) return new Map();
  const rows = await sql<Record<string, ChainValue>>(
    `${spec.select} where ${spec.idColumn} in (${placeholders(refs.length)})`,
    refs,
  );
  return new Map(rows.map((row) => [Number(row.id), row]));
}

/**
 * Appends row `ref` of `kind`, just written in the caller's transaction, to its contest's chain with
 * its columns read back from the database (so what is hashed is what is stored, to the millisecond),
 * for the writers through the ORM: a status change, an agent event, a message, a change of the allowed
 * sites. One read more than `appendToChain`.
 * @throws Error when the row is not there (it must be written first).
 */
export async function appendRowToChain(sql: ChainSql, kind: ChainKind, ref: number): Promise<ChainHead> {
  const run = chainRunner(sql);
  const row = (await readChainedRows(run, kind, [ref])).get(ref);
  if (!row) throw new Error(`appendRowToChain: ${kind} ${ref} is not in the database`);
  return appendToChain(run, Number(row.contest), kind, ref, row);
}

// The attempts' group commit ----------------------------------------------------------------------
//
// The hot path (bench/BENCHMARKS.md "Capacity of the attempts path"): no round trip of its own. The
// group locks the active contest's head with its team rows (first round trip) and sends its chain rows
// with its attempts (second round trip).

/**
 * The active contest's head, locked until the group's transaction ends; sent after the group's team
 * locks (a team row before the head). No row: no contest is active, or its chain has no head yet
 * (`lockChainHead` then makes it, one round trip more, once per contest).
 */
export const activeChainHeadStatement = (): SqlStatement => ({
  sql:
    'select contests_id, seq, hash from contest_chain_heads ' +
    'where contests_id = (select id from contests where active_key = 1) for update',
  params: [],
});

/**
 * The server's `innodb_autoinc_lock_mode`, sent with the head's lock: in modes 0 and 1 (MariaDB's
 * default) one multi-row INSERT with its rows given ("simple insert") gets consecutive ids in its
 * VALUES order, so the chain rows name their attempts as `LAST_INSERT_ID() + i`; in mode 2
 * (interleaved) they find them by team and event id (`consecutiveIds`).
 */
export const autoincModeStatement = (): SqlStatement => ({
  sql: 'select @@innodb_autoinc_lock_mode as mode',
  params: [],
});

/** Whether `autoincModeStatement`'s rows say a multi-row INSERT's ids are consecutive. */
export const consecutiveIds = (rows: readonly unknown[]): boolean =>
  Number((rows as Array<{ mode: number | string }>)[0]?.mode) <= 1;

/** The heads `activeChainHeadStatement` read, by contest id. */
export function readChainHeads(rows: readonly unknown[]): Map<number, ChainHead> {
  return new Map((rows as HeadRow[]).map((row) => [Number(row.contests_id), headOf(row)]));
}

/** One new attempt of a group as the chain needs it: its team and event id (to find its id) and its columns. */
export interface ChainedAttempt {
  teamId: number;
  eventId: string;
  /** Its row's place in the attempts' multi-row INSERT (0 for the first): its id is the first one's + this. */
  position: number;
  /** `CHAIN_KIND_SPECS.intento.columns` with the values written. */
  content: Readonly<Record<string, ChainValue>>;
}

/**
 * The chain rows of a group's new attempts of contest `contestId`, after `head` (locked by the group):
 * one multi-row INSERT, sent right after the attempts' own, and the head's UPDATE. Each row's
 * `ref_id` is `LAST_INSERT_ID() + position` when `consecutive` (`consecutiveIds`), else found by its
 * team and event id, the attempts' unique key, in a subquery per row (slower: 128 against 83 ms for a
 * 900-attempt group, bench/BENCHMARKS.md "The contest chain"). Answers them and the new head.
 */
export function attemptChainStatements(
  contestId: number,
  head: ChainHead,
  attempts: readonly ChainedAttempt[],
  consecutive = false,
): { statements: SqlStatement[]; head: ChainHead } {
  const columns = CHAIN_KIND_SPECS.intento!.columns;
  const params: unknown[] = [];
  let last = head;
  for (const attempt of attempts) {
    const content = contentHash('intento', columns, attempt.content);
    const seq = last.seq + 1;
    const hash = linkHash(last.hash, seq, 'intento', content);
    if (consecutive) params.push(contestId, seq, attempt.position, content, last.hash, hash);
    else params.push(contestId, seq, attempt.teamId, attempt.eventId, content, last.hash, hash);
    last = { seq, hash };
  }
  const row = consecutive
    ? "(?, ?, 'intento', last_insert_id() + ?, ?, ?, ?)"
    : "(?, ?, 'intento', (select id from attempts where teams_id = ? and event_id = ?), ?, ?, ?)";
  return {
    statements: [
      {
        sql: `insert into contest_chain (contests_id, seq, kind, ref_id, content_hash, prev_hash, hash) values ${attempts.map(() => row).join(', ')}`,
        params,
      },
      headUpdate(contestId, last),
    ],
    head: last,
  };
}
