/**
 * What ran in the lab (docs/design.md section 6): while the contest's "Registrar programas
 * ejecutados" is on (`config.observe`), every process instance that starts after observing began adds
 * its executable's file name and fingerprint to a per-machine log, deduplicated by name + SHA-256,
 * with the first and last time it was seen starting and how many starts are not yet reported. The
 * agent sends the pending entries with `POST /api/agent/observed` every `OBSERVED_SEND_MS`. Never
 * arguments, window titles or files: a `RunningProcess` has none of them (scanner.ts).
 */
import path from 'node:path';
import { AGENT_MAX_OBSERVED_BATCH, type AgentObservedProcess, withoutUnprintable } from '@concurso/shared';
import { AgentApiError } from './errors.js';
import type { Sha256 } from './fingerprint.js';
import { instanceKey } from './instance-key.js';
import { executableName, normaliseExecutableName } from './matcher.js';
import { observedPath } from './observed-where.js';
import { bytesOfProgram, programNames } from './program-of.js';
import type { Likeness } from './likeness.js';
import type { RunningProcess } from './scanner.js';

/** Time between two reports of what ran (ms): a lab's inventory a quarter-minute behind is fine. */
export const OBSERVED_SEND_MS = 15_000;

/** Most distinct executables waiting to be reported; more (a server away for long) are dropped. */
const OBSERVED_MAX_ENTRIES = 5_000;

/** Longest name sent (the column's length). */
const MAX_NAME = 255;

/** The helpers ps-list starts on each scan (children of the agent): not something the lab ran. */
const LISTER_HELPERS = new Set(['ps', 'fastlist-0.3.0-x64', 'fastlist-0.3.0-x86']);

/** One distinct executable waiting to be reported. */
interface Entry {
  name: string;
  sha256: Sha256 | null;
  /** What ran it, when a loader or an interpreter did (program-of.ts): `name` is then its program's. */
  via?: string;
  /** The executable's path at the latest start (observed-where.ts), when known. */
  path?: string;
  /** Its similarity digest and ELF build-id (likeness.ts), when read. */
  tlsh?: string;
  buildId?: string;
  /** First start not yet reported (ISO 8601, the agent's clock). */
  first: string;
  /** Latest start seen (ISO 8601). */
  last: string;
  /** Starts not yet reported. */
  pending: number;
}

/** The one call the log makes (the agent passes its `AgentClient`). */
interface ObservedSender {
  postObserved(observed: readonly AgentObservedProcess[]): Promise<{ stored: number }>;
}

export interface ObservedLogOptions {
  sender: ObservedSender;
  /** Most pending entries. Default `OBSERVED_MAX_ENTRIES`. */
  maxEntries?: number;
  /** Largest report. Default and maximum `AGENT_MAX_OBSERVED_BATCH`. */
  batchSize?: number;
  /** The log became full: later new executables are dropped until it drains (said once). */
  onFull?: (max: number) => void;
  /** The server refused a report as invalid (422): it is dropped, resending cannot help. */
  onRefused?: (count: number) => void;
  /**
   * The server turned a report away for good with a message of its own: 409, the team's
   * contest is not the active one; 429 without `Retry-After`, the team reached its cap of programs
   * (the rest was stored). The report is dropped; said once per message until a report goes through.
   */
  onTurnedAway?: (message: string) => void;
  /**
   * The server asked to wait (429 with `Retry-After`: too many reports a minute): the
   * entries stay pending and no report is sent for `waitMs` (ms). Said once until a report goes through.
   */
  onHeldBack?: (waitMs: number, message: string) => void;
  /** Now, in ms (tests pass their own clock). Default `Date.now`. */
  now?: () => number;
  /** A report was stored. */
  onSent?: () => void;
  /** A report failed for another reason: its entries stay pending for the next one. */
  onFailed?: (error: unknown) => void;
}

/** The per-machine log of executables started while observing, and its delivery. */
export class ObservedLog {
  private readonly entries = new Map<string, Entry>();
  /** Instances seen in the latest scan; null until the baseline scan. */
  private seen: Set<string> | null = null;
  private full = false;
  private sending: Promise<void> | null = null;
  /** No report before this time (ms), after a 429 with `Retry-After`. */
  private heldUntil = 0;
  /** Messages of the turn-aways and holds already said since the last report that went through. */
  private readonly said = new Set<string>();
  private readonly maxEntries: number;
  private readonly batchSize: number;

  constructor(private readonly options: ObservedLogOptions) {
    this.maxEntries = Math.max(1, options.maxEntries ?? OBSERVED_MAX_ENTRIES);
    this.batchSize = Math.min(
      Math.max(1, options.batchSize ?? AGENT_MAX_OBSERVED_BATCH),
      AGENT_MAX_OBSERVED_BATCH,
    );
  }

  /**
   * The instances of this scan that started since the previous one. The first scan after observing
   * begins is the baseline: it answers nothing (those processes started before). Leaves out kernel
   * threads (Linux: pid 2 and its children, which run no file) and the process lister's own helpers.
   */
  fresh(processes: readonly RunningProcess[]): RunningProcess[] {
    const live = new Set<string>();
    const result: RunningProcess[] = [];
    for (const proc of processes) {
      // With the executable's name: a process that execs another program (a shell running a command,
      // a fork caught by a scan before its exec) is a new start of that program, not the same one.
      const key = `${instanceKey(proc)}\n${normaliseExecutableName(executableName(proc))}`;
      live.add(key);
      if (this.seen !== null && !this.seen.has(key) && !ignored(proc)) result.push(proc);
    }
    // Only the running instances are remembered: memory follows the process list.
    this.seen = live;
    return result;
  }

  /**
   * Records one start of `proc`'s executable at `at` (ISO 8601), with its fingerprint (null:
   * unreadable) and, when read, its similarity digest and build-id (likeness.ts).
   */
  add(proc: RunningProcess, sha256: Sha256 | null, at: string, likeness?: Likeness | null): void {
    // A loader's or interpreter's program is what ran (program-of.ts), with what ran it.
    const program = bytesOfProgram(proc) ? programNames(proc.program)[0]! : null;
    const name = printableName(program ?? executableName(proc));
    if (name === '') return;
    const via = program !== null ? printableName(proc.program!.via) : '';
    const key = `${name}\n${sha256 ?? ''}\n${via}`;
    // Where it lies: the program's file, not its interpreter's.
    const judged = bytesOfProgram(proc) ? { path: proc.program.path } : proc;
    const entry = this.entries.get(key);
    if (entry) {
      withLikeness(entry, likeness);
      entry.pending += 1;
      if (entry.pending === 1) entry.first = at;
      if (at >= entry.last) entry.path = observedPath(judged) ?? entry.path;
      if (at > entry.last) entry.last = at;
      return;
    }
    if (this.entries.size >= this.maxEntries) {
      if (!this.full) this.options.onFull?.(this.maxEntries);
      this.full = true;
      return;
    }
    this.entries.set(key, { name, sha256, first: at, last: at, pending: 1, ...(via ? { via } : {}) });
    const where = observedPath(judged);
    if (where) this.entries.get(key)!.path = where;
    withLikeness(this.entries.get(key)!, likeness);
  }

  /** Stops observing: forgets the baseline and drops what is pending (the contest no longer wants it). */
  reset(): void {
    this.seen = null;
    this.entries.clear();
    this.full = false;
  }

  /** Distinct executables waiting to be reported. */
  get pending(): number {
    return this.entries.size;
  }

  /**
   * Reports every pending entry, in batches; one report at a time (a call during a report waits for
   * it). What fails stays pending and is merged with later starts. Never throws.
   */
  send(): Promise<void> {
    this.sending ??= this.sendAll().finally(() => {
      this.sending = null;
    });
    return this.sending;
  }

  private async sendAll(): Promise<void> {
    const now = this.options.now ?? Date.now;
    if (now() < this.heldUntil) return;
    const batch = [...this.entries.entries()];
    for (let i = 0; i < batch.length; i += this.batchSize) {
      const chunk = batch.slice(i, i + this.batchSize);
      const rows = chunk.map(([, e]) => ({
        name: e.name,
        sha256: e.sha256,
        first_seen: e.first,
        last_seen: e.last,
        starts: e.pending,
        ...(e.path ? { path: e.path } : {}),
        ...(e.via ? { via: e.via } : {}),
        ...(e.tlsh ? { tlsh: e.tlsh } : {}),
        ...(e.buildId ? { build_id: e.buildId } : {}),
      }));
      try {
        await this.options.sender.postObserved(rows);
        this.said.clear();
        this.options.onSent?.();
      } catch (error) {
        const status = error instanceof AgentApiError && error.kind === 'http' ? error.status : undefined;
        if (status === 429 && (error as AgentApiError).retryAfterMs !== undefined) {
          // Too many reports: wait as told, keeping everything for the next report.
          const { retryAfterMs, serverMessage } = error as AgentApiError;
          this.heldUntil = now() + retryAfterMs!;
          this.sayOnce(`espera:${serverMessage}`, () =>
            this.options.onHeldBack?.(retryAfterMs!, serverMessage),
          );
          return;
        }
        if (status === 409 || status === 429) {
          this.sayOnce(`fuera:${(error as AgentApiError).serverMessage}`, () =>
            this.options.onTurnedAway?.((error as AgentApiError).serverMessage || (error as Error).message),
          );
        } else if (status === 422) {
          this.options.onRefused?.(chunk.length);
        } else {
          this.options.onFailed?.(error);
          return;
        }
      }
      // Starts seen while the report was on its way stay pending; the server sums them later.
      chunk.forEach(([key, entry], j) => {
        entry.pending -= rows[j]!.starts;
        entry.first = rows[j]!.last_seen;
        if (entry.pending > 0) return;
        // Unless `reset` replaced it meanwhile.
        if (this.entries.get(key) === entry) this.entries.delete(key);
      });
    }
    if (this.entries.size < this.maxEntries) this.full = false;
  }

  /** Runs `say` unless `key` was said since the last report that went through. */
  private sayOnce(key: string, say: () => void): void {
    if (this.said.has(key)) return;
    this.said.add(key);
    say();
  }
}

/** The agent's own executable (`node`, or the single-file build), as a file name. */
const OWN_IMAGE = normaliseExecutableName(path.basename(process.execPath));

/**
 * Kernel threads, the lister's helpers, and a child of the agent still running the agent's own image
 * (a fork caught before its exec, which a later scan sees as the program it became): not programs
 * someone in the lab started.
 */
function ignored(proc: RunningProcess): boolean {
  if (process.platform === 'linux' && (proc.pid === 2 || proc.ppid === 2)) return true;
  if (proc.ppid !== process.pid) return false;
  const name = normaliseExecutableName(executableName(proc));
  return LISTER_HELPERS.has(name) || name === OWN_IMAGE;
}

/**
 * A file name the server's printable-text check accepts (shared's `withoutUnprintable`: no control
 * characters, lone surrogates or invisible format characters), trimmed, at most 255
 * characters.
 */
export function printableName(name: string): string {
  let clean = withoutUnprintable(name);
  if (clean.length > MAX_NAME) {
    clean = clean.slice(0, MAX_NAME);
    // Never end on half a surrogate pair.
    if (/[\uD800-\uDBFF]$/.test(clean)) clean = clean.slice(0, -1);
  }
  return clean.trim();
}

/** Keeps an entry's digest and build-id once read (a later start of the same file may bring them). */
function withLikeness(entry: Entry, likeness: Likeness | null | undefined): void {
  if (likeness?.tlsh) entry.tlsh = likeness.tlsh;
  if (likeness?.buildId) entry.buildId = likeness.buildId;
}
