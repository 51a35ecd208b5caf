import { hash } from 'node:crypto';
import type { ChainKind } from '@concurso/shared';

/**
 * What of each chained row is chained, and how it is hashed (README.md "Canonical content").
 *
 * A row's canonical content is `JSON.stringify` of an object whose keys are its kind's `columns`, in
 * that order, with each value as `canonicalValue` makes it; its `content_hash` is the SHA-256 (hex) of
 * `kind + '\n' + that JSON`. A chain row's `hash` is the SHA-256 of
 * `prev_hash + '\n' + seq + '\n' + kind + '\n' + content_hash`; the first row's `prev_hash` is
 * `GENESIS_HASH`. The row's id (`ref_id`) is not hashed: the attempts' group commit learns it only in
 * the database, and the content names the row anyway (an attempt by its team and `event_id`), so a
 * chain row pointed at another row fails on its content.
 */

/** `prev_hash` of a contest's first chain row. */
export const GENESIS_HASH = '0'.repeat(64);

/** Where a kind's rows live and which of their columns are chained. */
export interface ChainKindSpec {
  /**
   * `select <id>, <contest> as contest, <columns> from …` without its WHERE: `where <idColumn> in (…)`
   * is added. Every column of `columns` must be in it under that name.
   */
  select: string;
  /** The row id's column in `select`, for the `in (…)` filter. */
  idColumn: string;
  /** The chained columns, in the order they are serialised. */
  columns: readonly string[];
}

/**
 * The chained kinds. Left out on purpose: `created_at`/`updated_at` (bookkeeping), and the user who
 * acted (`users_id`): deleting an account sets it to null by its foreign key, a legitimate change that
 * must not break the chain (the log still names the judge while the account exists). A kind whose
 * table is not here yet is verified as `contenido` broken: add its spec with its table. A capture's
 * `image_kept` is left out: the per-team bound drops old images, keeping their rows and hashes.
 */
export const CHAIN_KIND_SPECS: Partial<Record<ChainKind, ChainKindSpec>> = {
  intento: {
    select:
      'select a.id, a.contests_id as contest, a.contests_id, a.teams_id, a.event_id, a.process, a.executable, ' +
      'a.via, a.killed, a.occurred_at, a.received_at from attempts a',
    idColumn: 'a.id',
    columns: [
      'contests_id',
      'teams_id',
      'event_id',
      'process',
      'executable',
      'via',
      'killed',
      'occurred_at',
      'received_at',
    ],
  },
  estatus: {
    // A status change has no contest of its own: it is its team's.
    select:
      'select s.id, t.contests_id as contest, s.teams_id, s.`from`, s.`to`, s.automatic, s.`at` ' +
      'from team_status_changes s join teams t on t.id = s.teams_id',
    idColumn: 's.id',
    columns: ['teams_id', 'from', 'to', 'automatic', 'at'],
  },
  agente: {
    select:
      'select e.id, e.contests_id as contest, e.contests_id, e.teams_id, e.kind, e.`at`, e.last_seen, ' +
      'e.silence_ms, e.hostname from agent_events e',
    idColumn: 'e.id',
    columns: ['contests_id', 'teams_id', 'kind', 'at', 'last_seen', 'silence_ms', 'hostname'],
  },
  mensaje: {
    select:
      'select m.id, m.contests_id as contest, m.contests_id, m.target, m.target_label, m.text, m.created_at, ' +
      'm.expires_at from messages m',
    idColumn: 'm.id',
    columns: ['contests_id', 'target', 'target_label', 'text', 'created_at', 'expires_at'],
  },
  red: {
    select:
      'select n.id, n.contests_id as contest, n.contests_id, n.version, n.allowed_sites, n.`at` ' +
      'from contest_network_changes n',
    idColumn: 'n.id',
    columns: ['contests_id', 'version', 'allowed_sites', 'at'],
  },
  captura: {
    select:
      'select c.id, c.contests_id as contest, c.contests_id, c.teams_id, c.event_id, c.request_id, ' +
      'c.hostname, c.moment, c.sha256, c.bytes, c.taken_at, c.received_at from captures c',
    idColumn: 'c.id',
    columns: [
      'contests_id',
      'teams_id',
      'event_id',
      'request_id',
      'hostname',
      'moment',
      'sha256',
      'bytes',
      'taken_at',
      'received_at',
    ],
  },
};

/** A chained column's value as a row of the database or the writer's own value holds it. */
export type ChainValue = string | number | bigint | boolean | Date | Buffer | null | undefined;

/**
 * One value in canonical form, so a value written by the server and the same value read back from the
 * database serialise alike: null for null or undefined; a `Date` as the DATETIME(3) text the
 * connections read ('2026-11-27 09:00:00.123', UTC; every chained time column is DATETIME(3)); a
 * boolean as 1 or 0 (a TINYINT reads as a number); a bigint as its digits; bytes as hex; numbers and
 * text as they are.
 */
export function canonicalValue(value: ChainValue): string | number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 23).replace('T', ' ');
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return value.toString();
  if (Buffer.isBuffer(value)) return value.toString('hex');
  return value;
}

/**
 * SHA-256 of `text` (UTF-8) in hex. `crypto.hash` (Node 20.12+), the one-shot form: half the cost of a
 * `createHash` object per call on the attempts' hot path (about 0.5 µs instead of 1 µs here).
 */
const sha256 = (text: string) => hash('sha256', text, 'hex');

/**
 * The `content_hash` of a row of `kind` whose chained columns are `columns` (in order) with the values
 * of `row`.
 */
export function contentHash(
  kind: string,
  columns: readonly string[],
  row: Readonly<Record<string, ChainValue>>,
): string {
  const canonical: Record<string, string | number | null> = {};
  for (const column of columns) canonical[column] = canonicalValue(row[column]);
  return sha256(`${kind}\n${JSON.stringify(canonical)}`);
}

/** A chain row's own `hash`: its link to `prevHash` and what it covers. */
export function linkHash(prevHash: string, seq: number, kind: string, content: string): string {
  return sha256(`${prevHash}\n${seq}\n${kind}\n${content}`);
}
