/**
 * The queue of attempts waiting for the server's acknowledgement, kept in a JSON file in the agent's
 * data folder so nothing is lost when the agent or the machine restarts. Every change rewrites the
 * file atomically (write a temporary file, flush it to disk, rename it over the old one), so a crash
 * leaves either the old queue or the new one, never half a file. Attempts the server refused (422)
 * leave the queue for a "refused" file next to it, with the server's reasons, instead of blocking the
 * attempts behind them or being deleted.
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { agentAttemptSchema, type AgentAttempt } from '@concurso/shared';

/** Format version written in the file, for later migrations. */
const FILE_VERSION = 1;

interface OutboxFile {
  version: number;
  attempts: AgentAttempt[];
}

/** An attempt the server refused, as kept in the refused file. */
export interface RefusedAttempt {
  attempt: AgentAttempt;
  /** The server's messages: why it refused the attempt. */
  reasons: string[];
  /** When the agent set it aside (ISO 8601, the machine's clock). */
  refused_at: string;
}

interface RefusedFile {
  version: number;
  refused: unknown[];
}

export interface OutboxOptions {
  /** Told when a file could not be read and was moved aside to `movedTo`. */
  onCorrupt?: (file: string, movedTo: string) => void;
  /**
   * Where refused attempts go. Default: next to `file`, named like it with `refused` in place of a
   * leading `outbox` (`outbox-x.json` → `refused-x.json`), or with `refused-` before it.
   */
  refusedFile?: string;
}

/** Persistent FIFO of attempts, unique by `event_id`. */
export class Outbox {
  private items: AgentAttempt[];
  /** Writes run one after another, each saving the state current when it runs. */
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    /** Path of the JSON file. */
    readonly file: string,
    /** Path of the JSON file of refused attempts (created on the first refusal). */
    readonly refusedFile: string,
    items: AgentAttempt[],
    private readonly onCorrupt: OutboxOptions['onCorrupt'],
  ) {
    this.items = items;
  }

  /**
   * Opens (or creates) the queue stored in `file`. A file that cannot be parsed is moved aside as
   * `<file>.corrupt-<time>` rather than deleted, and the queue starts empty; entries that do not
   * match the attempt schema are dropped (the server would refuse them forever).
   */
  static async open(file: string, options: OutboxOptions = {}): Promise<Outbox> {
    await mkdir(path.dirname(file), { recursive: true });
    const refusedFile = options.refusedFile ?? defaultRefusedFile(file);
    const create = (items: AgentAttempt[]) => new Outbox(file, refusedFile, items, options.onCorrupt);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return create([]);
      throw error;
    }
    const parsed = parseFile(text);
    if (parsed === null) {
      await moveAside(file, options.onCorrupt);
      return create([]);
    }
    return create(parsed);
  }

  /** Number of attempts waiting. */
  get size(): number {
    return this.items.length;
  }

  /** The attempts waiting, oldest first (a copy). */
  pending(): AgentAttempt[] {
    return [...this.items];
  }

  /**
   * Queues attempts and saves the queue before resolving. An `event_id` already queued is ignored.
   * Throws on an attempt the server would refuse (a bug of the caller, not a runtime condition).
   */
  async add(...attempts: AgentAttempt[]): Promise<void> {
    const valids = attempts.map((attempt) => agentAttemptSchema.parse(attempt));
    const known = new Set(this.items.map((a) => a.event_id));
    for (const valid of valids) {
      if (known.has(valid.event_id)) continue;
      known.add(valid.event_id);
      this.items.push(valid);
    }
    await this.save();
  }

  /** Removes the acknowledged attempts and saves the queue; answers how many were removed. */
  async ack(eventIds: Iterable<string>): Promise<number> {
    const done = new Set(eventIds);
    const before = this.items.length;
    this.items = this.items.filter((a) => !done.has(a.event_id));
    const removed = before - this.items.length;
    if (removed > 0) await this.save();
    return removed;
  }

  /**
   * Moves attempts the server refused out of the queue into the refused file, with the server's
   * reasons: first the refused file is saved (adding to what it holds; an `event_id` already there is
   * replaced), then the queue. A crash in between leaves the attempt in both, and it is set aside
   * again on its next refusal; nothing is lost. Attempts no longer queued are skipped. Answers how
   * many left the queue. Throws when a file cannot be written (the queue is then unchanged).
   */
  async setAside(
    refusals: readonly { attempt: AgentAttempt; reasons: readonly string[] }[],
  ): Promise<number> {
    const queued = new Set(this.items.map((a) => a.event_id));
    const refusedAt = new Date().toISOString();
    const entries: RefusedAttempt[] = refusals
      .filter((r) => queued.has(r.attempt.event_id))
      .map((r) => ({ attempt: r.attempt, reasons: [...r.reasons], refused_at: refusedAt }));
    if (entries.length === 0) return 0;
    const run = this.writing.then(() => this.addRefused(entries));
    this.writing = run.catch(() => undefined);
    await run;
    return this.ack(entries.map((e) => e.attempt.event_id));
  }

  /** The refused attempts kept in the refused file, oldest first; empty when there is none. */
  async refused(): Promise<RefusedAttempt[]> {
    let text: string;
    try {
      text = await readFile(this.refusedFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return (parseRefusedFile(text) ?? []).filter((e): e is RefusedAttempt => refusedId(e) !== undefined);
  }

  /** Adds `entries` to the refused file; a damaged one is moved aside (never deleted) first. */
  private async addRefused(entries: RefusedAttempt[]): Promise<void> {
    // Entries are kept as written, even odd ones: they are for a person to read, never dropped.
    let kept: unknown[] = [];
    try {
      const parsed = parseRefusedFile(await readFile(this.refusedFile, 'utf8'));
      if (parsed === null) await moveAside(this.refusedFile, this.onCorrupt);
      else kept = parsed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const replaced = new Set(entries.map((e) => e.attempt.event_id));
    const content: RefusedFile = {
      version: FILE_VERSION,
      refused: [...kept.filter((e) => !replaced.has(refusedId(e) ?? '')), ...entries],
    };
    await writeAtomically(this.refusedFile, `${JSON.stringify(content, null, 2)}\n`);
  }

  private save(): Promise<void> {
    const run = this.writing.then(() => writeAtomically(this.file, this.snapshot()));
    // A failed write must not block the next ones; the caller still sees its own failure.
    this.writing = run.catch(() => undefined);
    return run;
  }

  private snapshot(): string {
    const content: OutboxFile = { version: FILE_VERSION, attempts: this.items };
    return `${JSON.stringify(content)}\n`;
  }
}

/** The attempts of a queue file, or null when the file is not a queue file at all. */
function parseFile(text: string): AgentAttempt[] | null {
  const items = jsonArrayField(text, 'attempts');
  if (items === null) return null;
  const seen = new Set<string>();
  const attempts: AgentAttempt[] = [];
  for (const item of items) {
    const valid = agentAttemptSchema.safeParse(item);
    if (valid.success && !seen.has(valid.data.event_id)) {
      seen.add(valid.data.event_id);
      attempts.push(valid.data);
    }
  }
  return attempts;
}

/** The entries of a refused file as written, or null when the file is not a refused file at all. */
function parseRefusedFile(text: string): unknown[] | null {
  return jsonArrayField(text, 'refused');
}

/**
 * The array under `key` of a JSON object (`attempts` of a queue file, `refused` of a refused file), or
 * null when the text is not JSON or has no such array: such a file is not ours and is left alone.
 */
function jsonArrayField(text: string, key: keyof OutboxFile | keyof RefusedFile): unknown[] | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object') return null;
  const items = (data as Record<string, unknown>)[key];
  return Array.isArray(items) ? items : null;
}

/** The `event_id` of a refused file's entry, when it has one. */
function refusedId(entry: unknown): string | undefined {
  const attempt = entry && typeof entry === 'object' ? (entry as { attempt?: unknown }).attempt : undefined;
  const id =
    attempt && typeof attempt === 'object' ? (attempt as { event_id?: unknown }).event_id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** The default refused file of the queue file `file` (see `OutboxOptions.refusedFile`). */
function defaultRefusedFile(file: string): string {
  const base = path.basename(file);
  const name = base.startsWith('outbox') ? `refused${base.slice('outbox'.length)}` : `refused-${base}`;
  return path.join(path.dirname(file), name);
}

/** Renames an unreadable `file` to `<file>.corrupt-<time>` and tells `onCorrupt`. */
async function moveAside(file: string, onCorrupt: OutboxOptions['onCorrupt']): Promise<void> {
  const movedTo = `${file}.corrupt-${Date.now()}`;
  await rename(file, movedTo);
  onCorrupt?.(file, movedTo);
}

/** Writes `content` to `file` through a temporary file, fsync and rename. */
export async function writeAtomically(file: string, content: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(content, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await renameWithRetry(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** On Windows a rename can fail for a moment while an antivirus or indexer holds the target. */
async function renameWithRetry(from: string, to: string, tries = 5): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      await rename(from, to);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (i >= tries || (code !== 'EPERM' && code !== 'EBUSY' && code !== 'EACCES')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * i));
    }
  }
}
