/**
 * The queue of attempts waiting for the server's acknowledgement, kept in a JSON file in the agent's
 * data folder so nothing is lost when the agent or the machine restarts. Every change rewrites the
 * file atomically (write a temporary file, flush it to disk, rename it over the old one), so a crash
 * leaves either the old queue or the new one, never half a file.
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

export interface OutboxOptions {
  /** Told when the file could not be read and was moved aside to `movedTo`. */
  onCorrupt?: (file: string, movedTo: string) => void;
}

/** Persistent FIFO of attempts, unique by `event_id`. */
export class Outbox {
  private items: AgentAttempt[];
  /** Writes run one after another, each saving the state current when it runs. */
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    /** Path of the JSON file. */
    readonly file: string,
    items: AgentAttempt[],
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
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Outbox(file, []);
      throw error;
    }
    const parsed = parseFile(text);
    if (parsed === null) {
      const movedTo = `${file}.corrupt-${Date.now()}`;
      await rename(file, movedTo);
      options.onCorrupt?.(file, movedTo);
      return new Outbox(file, []);
    }
    return new Outbox(file, parsed);
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
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!data || typeof data !== 'object' || !Array.isArray((data as OutboxFile).attempts)) return null;
  const seen = new Set<string>();
  const attempts: AgentAttempt[] = [];
  for (const item of (data as OutboxFile).attempts) {
    const valid = agentAttemptSchema.safeParse(item);
    if (valid.success && !seen.has(valid.data.event_id)) {
      seen.add(valid.data.event_id);
      attempts.push(valid.data);
    }
  }
  return attempts;
}

/** Writes `content` to `file` through a temporary file, fsync and rename. */
async function writeAtomically(file: string, content: string): Promise<void> {
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
