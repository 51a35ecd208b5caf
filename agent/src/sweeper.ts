import { randomUUID } from 'node:crypto';
import {
  attemptProcessLabel,
  type AgentAttempt,
  type AgentAttemptMatch,
  type AgentFingerprint,
} from '@concurso/shared';
import type { AgentStats } from './agent-options.js';
import type { KillShots } from './capture.js';
import { describeError } from './errors.js';
import type { Fingerprinter, Sha256 } from './fingerprint.js';
import type { Killer, KillReport } from './killer.js';
import { LikenessReader, type Likeness } from './likeness.js';
import { blockedForProgram, createMatcher, indexFingerprints, renamedAs, type Matcher } from './matcher.js';
import { printableName, type ObservedLog } from './observed.js';
import { defaultPeIdentities, versionResourceMatch, type PeIdentities } from './pe-identity.js';
import type { Outbox } from './outbox.js';
import { bytesOfProgram, ProgramFinder } from './program-of.js';
import { listProcesses, type ProcessLister, type RunningProcess } from './scanner.js';
import { SimilarPrograms } from './similar-programs.js';
import { systemBuildIds } from './system-build-ids.js';
import { SystemFiles } from './system-files.js';
import { TEXTS } from './texts.js';
import { setBounded } from './bounded-cache.js';

/**
 * Longest a scan waits for a new process's fingerprint before going on (ms): the hash goes on in the
 * background and the next scan uses it, so a big program starting never delays the next poll.
 */
const HASH_WAIT_MS = 250;

/** Longest a scan waits for the fingerprint of a process it just ended, for its attempt (ms). */
const ATTEMPT_HASH_WAIT_MS = 2_000;

/**
 * Longest an attempt's likeness waits for the index of the system programs' build-ids (ms;
 * system-build-ids.ts): after it, the attempt goes with the likeness, which is learned only once the
 * index says it is no system program's.
 */
const SYSTEM_INDEX_WAIT_MS = 1_000;

/**
 * Most fingerprints the agent learns from its own kills: a contestant making many files
 * under a blocked name cannot grow the agent without bound; the oldest is forgotten first.
 */
const LEARNED_FINGERPRINTS_MAX = 256;

/** What a scan works with: set up once by the running agent (running-agent.ts). */
export interface SweeperParts {
  lister: ProcessLister;
  killer: Killer;
  fingerprinter: Fingerprinter;
  /** What ran on the machine, reported while the contest observes. */
  observed: ObservedLog;
  /** Where attempts wait for the server; null: none is kept. */
  outbox: Outbox | null;
  /** The counters a scan moves (`sweeps`, `killed`, `failed`, `detected`, `queued`). */
  stats: AgentStats;
  log: (line: string) => void;
  /** The data folder, for the line when the outbox cannot be written. */
  dataDir: string;
  /** Whether the contest observes now (the config may change between scans). */
  observing: () => boolean;
  /** After attempts were queued: send them (the delivery's kick). */
  queued: () => void;
  /** After a scan that ended a process: the running agent rescans fast for a while (rescan-burst.ts). */
  ended?: () => void;
  /**
   * Reads executables' version resources (pe-identity.ts); null: never. Default: on Windows only
   * (`defaultPeIdentities`).
   */
  peIdentities?: PeIdentities | null;
  /** Reads executables' similarity digests and build-ids (likeness.ts). Default: a new reader. */
  likeness?: LikenessReader;
  /**
   * Longest an attempt of a first kill waits for its file's SHA-256 and likeness before it is queued
   * without them (ms). Default `ATTEMPT_HASH_WAIT_MS`; a test holding the hashes back sets it past its
   * own run, so a loaded machine cannot queue the attempt early.
   */
  attemptHashWaitMs?: number;
  /** The screen captures of a kill, once its attempt (`eventId`) is queued (capture-uploads.ts). */
  captured?: (eventId: string, shots: KillShots) => void;
}

/** What one process came to in a scan. */
interface Outcome {
  report: KillReport | null;
  sha256: Sha256 | null;
  renamed?: string;
  /** How the process was matched: by its name, or by its fingerprint (the attempt's `match`). */
  match?: AgentAttemptMatch;
  /** What ran the program it was judged by, when a loader or an interpreter (program-of.ts). */
  via?: string;
  /** The ended file's similarity digest and build-id, when read in time (the attempt's `tlsh`, `build_id`). */
  likeness?: Likeness | null;
  /** The whole outcome, when its attempt still waits for its file's hashes after the scan (`report` null). */
  later?: Promise<Outcome>;
}

/**
 * The agent's scan (docs/design.md section 6): lists the processes, ends every one blocked by
 * name or, failing that, by its executable's fingerprint (a renamed copy), records what started while
 * the contest observes, and queues one attempt per ended instance. Scans never overlap: a slow one
 * (waiting out a grace period) delays the next.
 */
export class Sweeper {
  private byName: Matcher;
  private bySha: Map<string, string>;
  /**
   * SHA-256 → blocked name, of the files this machine ended by name (docs/design.md section 6a:
   * a team's own claim applies at once to its own machines). The server learns the same from the
   * attempt and sends it in the config; this makes the next scan end a renamed copy without waiting
   * for that config.
   */
  private readonly learned = new Map<string, string>();
  private lastScanError: string | null = null;
  /** Scans in order; the next starts when this settles. */
  private chain: Promise<void> = Promise.resolve();
  /** Recordings of what ran waiting for their fingerprint (the scan does not wait for them). */
  private readonly recording = new Set<Promise<void>>();
  /** The programs of loaders and interpreters, judged instead of their executable (program-of.ts). */
  private readonly programs = new ProgramFinder();
  /** Version resources: a renamed copy that still says it is a blocked program (pe-identity.ts). */
  private readonly pe: PeIdentities | null;
  /** Similarity digests and build-ids of the files processes run (likeness.ts). */
  private readonly likeness: LikenessReader;
  /** The blocked programs' known files, by likeness: patched copies (similar-programs.ts). */
  private readonly similar = new SimilarPrograms();
  /** Whether a process runs a system file: never ended for its likeness or a learned SHA-256 (system-files.ts). */
  private readonly system = new SystemFiles();

  constructor(
    private readonly parts: SweeperParts,
    blocked: readonly string[],
    fingerprints: readonly AgentFingerprint[],
  ) {
    this.byName = createMatcher(blocked);
    this.bySha = indexFingerprints(fingerprints);
    this.pe = parts.peIdentities !== undefined ? parts.peIdentities : defaultPeIdentities();
    this.likeness = parts.likeness ?? new LikenessReader();
    this.similar.setFingerprints(fingerprints);
  }

  /** Matches the next scans against a new blocked list. */
  setBlocked(blocked: readonly string[]): void {
    this.byName = createMatcher(blocked);
    // A program no longer blocked by name is no longer ended by what was learned of it either.
    for (const [sha, name] of this.learned) if (this.byName({ name }) === null) this.learned.delete(sha);
    this.similar.forgetUnless((name) => this.byName({ name }) !== null);
  }

  /** Matches the next scans against new fingerprints. */
  setFingerprints(fingerprints: readonly AgentFingerprint[]): void {
    this.bySha = indexFingerprints(fingerprints);
    this.similar.setFingerprints(fingerprints);
  }

  /** One scan, after the one in progress. */
  sweep(): Promise<void> {
    const run = this.chain.then(() => this.scanOnce());
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Waits for the scan in progress and the recordings it started. */
  async settled(): Promise<void> {
    await this.chain.catch(() => undefined);
    await Promise.all(this.recording);
  }

  private async scanOnce(): Promise<void> {
    const processes = await this.list();
    if (!processes) return;
    this.programs.attach(processes);
    const { killer, fingerprinter, observed, stats } = this.parts;
    stats.sweeps += 1;
    const seenAt = new Date().toISOString();
    killer.retain(processes);
    fingerprinter.retain(processes);
    this.pe?.retain(processes);
    this.likeness.retain(processes);
    const byName = this.byName;
    const bySha = this.bySha;
    // New instances since the last scan (none on the baseline scan), only while the contest observes.
    // The same objects as `processes`, so membership costs no second instanceKey per process.
    const fresh = new Set(this.parts.observing() ? observed.fresh(processes) : []);
    // Without fingerprints and without observing, nothing is hashed but the attempts' own files.
    const outcomes = await Promise.all(
      processes.map((proc) =>
        this.handleProcess(proc, byName, bySha, fresh.has(proc), seenAt).then((o) => {
          const later = o.later?.then((done) => withVia(done, proc, byName));
          return later ? { ...o, later } : withVia(o, proc, byName);
        }),
      ),
    );
    const attempts: AgentAttempt[] = [];
    /** The captures of the kills of `attempts`, handed over once those are queued (their uploads wait for them). */
    const shots: [string, KillShots][] = [];
    for (const outcome of outcomes) {
      if (outcome.later) this.completeLater(outcome.later, seenAt);
      const attempt = outcome.report ? this.account(outcome, seenAt) : null;
      if (attempt) attempts.push(attempt);
      if (attempt && outcome.report?.shots) shots.push([attempt.event_id, outcome.report.shots]);
      if (outcome.report && outcome.sha256 && outcome.match === 'nombre')
        this.learn(outcome.sha256, outcome.report.blocked);
    }
    await this.queue(attempts);
    for (const [eventId, taken] of shots) this.parts.captured?.(eventId, taken);
    if (outcomes.some((o) => o.report?.outcome === 'killed')) this.parts.ended?.();
  }

  /** Accounts and queues an outcome whose attempt waited for its file's hashes past the scan. */
  private completeLater(later: Promise<Outcome>, seenAt: string): void {
    const run = later.then(async (outcome) => {
      this.recording.delete(run);
      const attempt = outcome.report ? this.account(outcome, seenAt) : null;
      if (outcome.report && outcome.sha256 && outcome.match === 'nombre')
        this.learn(outcome.sha256, outcome.report.blocked);
      if (attempt) await this.queue([attempt]);
      if (attempt && outcome.report?.shots) this.parts.captured?.(attempt.event_id, outcome.report.shots);
    });
    this.recording.add(run);
  }

  /** The running processes, or null when they could not be listed (said once per new reason). */
  private async list(): Promise<RunningProcess[] | null> {
    try {
      const processes = await listProcesses(this.parts.lister);
      this.lastScanError = null;
      return processes;
    } catch (error) {
      const reason = describeError(error);
      if (reason !== this.lastScanError) this.parts.log(TEXTS.scanFailed(reason));
      this.lastScanError = reason;
      return null;
    }
  }

  /**
   * One process of a scan. A name match is ended first and fingerprinted after (its file remains), so hashing
   * a big browser never delays the kill, and the scan waits at most `ATTEMPT_HASH_WAIT_MS` for that
   * fingerprint. Any other process is fingerprinted only when the config has fingerprints to match, and ended
   * when its fingerprint is a blocked program's; a file not hashed within `HASH_WAIT_MS` is looked at again
   * by a later scan, so a big new program never holds up the next poll. A new process while the contest
   * observes is recorded with its fingerprint when that is ready, without holding up the scan either.
   */
  private async handleProcess(
    proc: RunningProcess,
    byName: Matcher,
    bySha: Map<string, string>,
    isFresh: boolean,
    seenAt: string,
  ): Promise<Outcome> {
    const { killer, fingerprinter, observed } = this.parts;
    // By its file name, else by the name its version resource gives (a renamed copy: pe-identity.ts).
    const byFileName = byName(proc);
    const resource = byFileName === null && this.pe ? await this.byResource(this.pe, proc, byName) : null;
    const blocked = byFileName ?? resource;
    if (blocked !== null) {
      const report = await killer.handle(proc, blocked);
      // Its build-id alone is learned at once (a few KB read): a patched copy started right after is
      // ended before the digest of a big file is ready.
      if (report?.first) this.learnBuildId(proc, blocked);
      // A first big file may take long: the attempt then goes without it (the hash goes on, and the
      // next kill of the same file carries it). Its likeness is learned whenever it is ready.
      const attemptWait = this.parts.attemptHashWaitMs ?? ATTEMPT_HASH_WAIT_MS;
      const details = Promise.all([
        report?.first || isFresh
          ? atMost(attemptWait, fingerprinter.ofProcess(proc)).then((sha) => sha ?? null)
          : null,
        report?.first ? atMost(attemptWait, this.learnLikeness(proc, blocked)) : undefined,
      ]).then(([sha256, likeness]): Outcome => {
        if (isFresh) observed.add(proc, sha256, seenAt, likeness);
        const renamed = resource !== null ? renamedAs(resource, proc) : undefined;
        return {
          report,
          sha256,
          match: 'nombre',
          likeness,
          ...(renamed ? { renamed: printableName(renamed) } : {}),
        };
      });
      // The scan waits for them at most `HASH_WAIT_MS`: the attempt of a bigger file is completed and
      // queued apart (`settled` waits for it), so the next scan (a copy started at once) is not held.
      const done = await atMost(HASH_WAIT_MS, details);
      if (done) return done;
      if (report?.outcome === 'killed') this.parts.ended?.();
      return { report: null, sha256: null, later: details };
    }
    if (isFresh) this.record(proc, seenAt);
    if (bySha.size === 0 && this.learned.size === 0 && this.similar.size === 0)
      return { report: null, sha256: null };
    // The likeness is read alongside the hash (not after it) when there are known files to compare.
    const likeness = this.similar.size > 0 ? this.likenessOf(proc) : null;
    const known = fingerprinter.known(proc);
    const sha256 = known !== undefined ? known : await atMost(HASH_WAIT_MS, fingerprinter.ofProcess(proc));
    let copyOf = sha256 ? (bySha.get(sha256) ?? this.learned.get(sha256)) : undefined;
    if (copyOf !== undefined && !bySha.has(sha256!) && this.system.ofProcess(proc)) {
      // Learned from a kill by name of a copy of this system program: forgotten, never a reason to end
      // it (agent/README.md «Copias modificadas»); only the config's fingerprints end a system file.
      this.learned.delete(sha256!);
      copyOf = undefined;
    }
    if (copyOf === undefined) return this.bySimilarity(proc, sha256 ?? null, likeness);
    const report = await killer.handle(proc, copyOf);
    const renamed = renamedAs(copyOf, proc);
    const shown = renamed ? printableName(renamed) : '';
    // 'huella': the server never takes this kill for a claim (docs/design.md section 6a), so a forged
    // fingerprint that ends an innocent program does not make its victim one more claimant.
    return { report, sha256: sha256 ?? null, match: 'huella', ...(shown ? { renamed: shown } : {}) };
  }

  /**
   * A process not matched by name or SHA-256, ended when its file's build-id is a known file's or its
   * TLSH digest is within `SIMILAR_MAX_DISTANCE` of one (similar-programs.ts): a patched copy of a
   * blocked program. `likeness` was asked for at most `HASH_WAIT_MS` ago; one not read in time is
   * looked at again by a later scan. `'similar'`, like `'huella'`, is never a claim (docs/design.md section 6a).
   */
  private async bySimilarity(
    proc: RunningProcess,
    sha256: Sha256 | null,
    likeness: Promise<Likeness | null | undefined> | null,
  ): Promise<Outcome> {
    const read = likeness ? await likeness : undefined;
    if (this.system.ofProcess(proc)) {
      // A system file is never ended for its likeness; what was learned like it is forgotten.
      if (read) this.similar.systemSeen(read);
      return { report: null, sha256 };
    }
    const found = this.similar.match(read);
    if (!found) return { report: null, sha256 };
    const report = await this.parts.killer.handle(proc, found.blocked);
    const renamed = renamedAs(found.blocked, proc);
    const shown = renamed ? printableName(renamed) : '';
    return { report, sha256, match: 'similar', likeness: read, ...(shown ? { renamed: shown } : {}) };
  }

  /** `proc`'s likeness: at once when known, else waited for at most `HASH_WAIT_MS` (it goes on). */
  private likenessOf(proc: RunningProcess): Promise<Likeness | null | undefined> {
    const known = this.likeness.known(proc);
    if (known !== undefined) return Promise.resolve(known);
    const whole = this.likeness.ofProcess(proc);
    // A known build-id (a few KB read) decides without waiting for the digest of a big file.
    const quick = this.likeness.buildIdOf(proc).then((buildId) => {
      const alone = { tlsh: null, buildId };
      return buildId && this.similar.match(alone) ? alone : whole;
    });
    return atMost(HASH_WAIT_MS, quick);
  }

  /**
   * Reads the likeness of a process ended by name and learns it as that blocked program (within
   * `LEARNED_LIKENESS_MAX`) whenever it is ready: its patched copies are ended from the next scan.
   */
  private learnLikeness(proc: RunningProcess, blocked: string): Promise<Likeness | null> {
    return this.likeness.ofProcess(proc).then((likeness) => this.learnChecked(likeness, blocked));
  }

  /** Learns the build-id alone of a process ended by name (`learnChecked`), as soon as it is read. */
  private learnBuildId(proc: RunningProcess, blocked: string): void {
    void this.likeness
      .buildIdOf(proc)
      .then((buildId) => (buildId ? this.learnChecked({ tlsh: null, buildId }, blocked) : null));
  }

  /**
   * Learns `likeness` as `blocked` unless it is a system program's; answers it, or null when it is
   * one (what the attempt then carries).
   */
  private async learnChecked(likeness: Likeness | null, blocked: string): Promise<Likeness | null> {
    // A copy of a system program seen running teaches nothing and sends no likeness to the server
    // (similar-programs.ts `learn`; agent/README.md «Copias modificadas»).
    if (this.similar.matchesSystem(likeness)) return null;
    if (!likeness) return likeness;
    const learn = () => {
      if (this.byName({ name: blocked }) !== null) this.similar.learn(likeness, blocked);
    };
    if (!likeness.buildId) {
      learn();
      return likeness;
    }
    // Nor does a copy of a program in the system's folders, running or not (system-build-ids.ts).
    // The attempt waits at most `SYSTEM_INDEX_WAIT_MS` for the index (built once, on the first
    // kill); the learning waits for it whatever it takes.
    const system = systemBuildIds.has(likeness.buildId);
    const known = await atMost(SYSTEM_INDEX_WAIT_MS, system);
    if (known) {
      this.similar.systemSeen(likeness);
      return null;
    }
    if (known === false) learn();
    else void system.then((yes) => (yes ? this.similar.systemSeen(likeness) : learn()));
    return likeness;
  }

  /**
   * The blocked name `proc`'s version resource says it is (OriginalFilename or InternalName), or
   * null; waits at most `HASH_WAIT_MS` for a file not read yet (a later scan uses it then).
   */
  private async byResource(pe: PeIdentities, proc: RunningProcess, byName: Matcher): Promise<string | null> {
    const known = pe.known(proc);
    const identity = known !== undefined ? known : await atMost(HASH_WAIT_MS, pe.ofProcess(proc));
    return versionResourceMatch(identity, byName)?.blocked ?? null;
  }

  /** Remembers the file of a process ended by name as that blocked program, within the bound. */
  private learn(sha256: Sha256, blocked: string): void {
    // A scan that began under an older blocked list ends after `setBlocked`: learn nothing it forgot.
    if (this.learned.has(sha256) || this.byName({ name: blocked }) === null) return;
    setBounded(this.learned, sha256, blocked, LEARNED_FINGERPRINTS_MAX);
  }

  /** Records a new process with its fingerprint once that is ready, unless the contest stopped observing. */
  private record(proc: RunningProcess, seenAt: string): void {
    // Its likeness too (after any file asked for a match: likeness.ts), for the server's «también
    // coincide con» and «nuevo».
    const run = Promise.all([
      this.parts.fingerprinter.ofProcess(proc),
      this.likeness.ofProcess(proc, true),
    ]).then(([sha256, likeness]) => {
      this.recording.delete(run);
      if (likeness && this.system.ofProcess(proc)) this.similar.systemSeen(likeness);
      if (this.parts.observing()) this.parts.observed.add(proc, sha256, seenAt, likeness);
    });
    this.recording.add(run);
  }

  /**
   * Logs one report and answers the attempt to queue for it, if any: with the executable's
   * fingerprint when it could be read, the name it ran as when it is a renamed copy, how it was
   * matched (`match`: 'nombre', 'huella' or 'similar') and its digest and build-id when read.
   */
  private account(
    { report, sha256, renamed, match, via, likeness }: Outcome,
    at: string,
  ): AgentAttempt | null {
    if (!report) return null;
    const { stats, log } = this.parts;
    // "chrome.exe, renombrado como notepad.exe" for a renamed copy; the file name as found otherwise.
    // "chatgpt (vía python3)" for a loader's or interpreter's program.
    const label = renamed || via ? attemptProcessLabel(report.blocked, renamed, via) : report.executable;
    if (report.outcome === 'detected') {
      // Dry run: nothing is ended, but the attempt is reported, so the whole path can be checked.
      stats.detected += 1;
      log(TEXTS.detected(label, report.pid));
    } else if (report.outcome === 'killed') {
      stats.killed += 1;
      log(TEXTS.killed(label, report.pid));
    } else {
      stats.failed += 1;
      const reason = report.error ? TEXTS.signalError(report.error) : TEXTS.stillAlive;
      log(TEXTS.killFailed(label, report.pid, reason));
    }
    // One attempt per instance, killed or not: trying to run it is what counts.
    return report.first
      ? {
          event_id: randomUUID(),
          process: report.blocked,
          occurred_at: at,
          killed: report.outcome === 'killed',
          ...(sha256 ? { sha256 } : {}),
          ...(renamed ? { executable: renamed } : {}),
          ...(match ? { match } : {}),
          ...(via ? { via } : {}),
          ...(likeness?.tlsh ? { tlsh: likeness.tlsh } : {}),
          ...(likeness?.buildId ? { build_id: likeness.buildId } : {}),
        }
      : null;
  }

  /** Puts a scan's attempts in the outbox and has them sent. */
  private async queue(attempts: AgentAttempt[]): Promise<void> {
    const { outbox, stats, log, dataDir } = this.parts;
    if (attempts.length === 0 || !outbox) return;
    try {
      await outbox.add(...attempts);
      stats.queued += attempts.length;
    } catch (error) {
      log(TEXTS.dataDir(dataDir, describeError(error)));
    }
    this.parts.queued();
  }
}

/**
 * An ended process's outcome with `via` when it was judged by the program it runs (program-of.ts):
 * by that program's name, or by a fingerprint or digest, which are the program's file's then.
 */
function withVia(outcome: Outcome, proc: RunningProcess, byName: Matcher): Outcome {
  if (!outcome.report || !proc.program) return outcome;
  if (outcome.match === 'nombre' && !blockedForProgram(byName, proc)) return outcome;
  // A fingerprint or a digest of a runner that is not the system's was its own file's.
  if (outcome.match !== 'nombre' && !bytesOfProgram(proc)) return outcome;
  return { ...outcome, via: printableName(proc.program.via) };
}

/** `promise`'s value, or undefined when it takes more than `ms` (ms); it goes on either way. */
export async function atMost<T>(ms: number, promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
