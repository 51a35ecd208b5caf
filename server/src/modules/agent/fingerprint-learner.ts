import type { EntityManager } from '@mikro-orm/mysql';
import type { AgentAttempt } from '@concurso/shared';
import { learnFingerprints, type FingerprintSighting } from '../processes/process-fingerprints.repository.js';

/**
 * How long this process remembers a (process, fingerprint) it has taught the database, so repeated
 * attempts skip it (ms). Bounded so a process deleted and created again (its fingerprints deleted
 * with it) learns them again within minutes, without a restart.
 */
export const FINGERPRINT_MEMORY_MS = 10 * 60 * 1000;

/** Most sightings remembered at once; past it the memory starts over (one statement per pair again). */
export const FINGERPRINT_MEMORY_MAX = 10_000;

/**
 * Learns the fingerprints the agents report with their attempts (issue 14): an attempt with `sha256`
 * for process name P teaches `sha256 → the catalogue's process named P` (`learnFingerprints`: one
 * `insert ignore … select`; an unknown name teaches nothing, a known fingerprint keeps its process).
 *
 * Why here and not in the group's transaction: the attempts path is the measured one
 * (bench/BENCHMARKS.md, "Capacity of the attempts path"), and a fingerprint is the same for every
 * attempt at one program, so after the first one there is nothing to learn. The writer calls `learn`
 * after its commit; pairs this process already taught are skipped from memory, so the usual group
 * costs no statement at all, and a new pair costs one. A failure is only logged: the attempts are
 * durable already, and a pair not taught is not remembered, so the next attempt tries again.
 */
export class FingerprintLearner {
  private readonly taught = new Map<string, number>();

  /**
   * @param fork a fresh entity manager per call (`orm.em.fork()`).
   * @param onError told of a failed statement (the server logs it).
   * @param now the clock (ms), for the memory's expiry.
   */
  constructor(
    private readonly fork: () => EntityManager,
    private readonly onError: (err: unknown) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** Teaches the fingerprints of `attempts` not taught in the last `FINGERPRINT_MEMORY_MS`. Never throws. */
  async learn(attempts: Iterable<Pick<AgentAttempt, 'process' | 'sha256'>>): Promise<void> {
    const at = this.now();
    const fresh = new Map<string, FingerprintSighting>();
    for (const a of attempts) {
      if (!a.sha256) continue;
      // Lower case: the process name compares without case (the column's collation).
      const key = `${a.sha256}:${a.process.toLowerCase()}`;
      const since = this.taught.get(key);
      if (since !== undefined && at - since < FINGERPRINT_MEMORY_MS) continue;
      fresh.set(key, { process: a.process, sha256: a.sha256 });
    }
    if (fresh.size === 0) return;
    try {
      await learnFingerprints(this.fork(), [...fresh.values()]);
    } catch (err) {
      this.onError(err);
      return;
    }
    if (this.taught.size + fresh.size > FINGERPRINT_MEMORY_MAX) this.taught.clear();
    for (const key of fresh.keys()) this.taught.set(key, at);
  }
}
