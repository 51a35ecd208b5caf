/**
 * The known files of the blocked programs, by likeness (docs/design.md section 6a: a program is known by
 * its bytes and their similarity; the rule: agent/src/README.md "Similar files"): a process whose
 * file has the same ELF build-id as a known file, or a TLSH digest within `SIMILAR_MAX_DISTANCE`
 * (shared/src/similarity.ts) of one, is that blocked program. Known files are the config's
 * fingerprints that carry a digest or a build-id (the contest's confirmed ones, sent by the server)
 * and the files this machine ended by name (learned here, at most `LEARNED_LIKENESS_MAX`, the
 * oldest forgotten first).
 */
import {
  isTlsh,
  parsedDistance,
  parseTlsh,
  SIMILAR_MAX_DISTANCE,
  type AgentFingerprint,
  type ParsedTlsh,
} from '@concurso/shared';
import type { BuildId } from './build-id.js';
import type { Likeness } from './likeness.js';
import { setBounded } from './bounded-cache.js';

/**
 * Most files learned from this machine's own kills: a contestant making many files under a blocked
 * name cannot grow the agent (or the cost of a comparison) without bound.
 */
export const LEARNED_LIKENESS_MAX = 256;

/** Most likenesses of system files remembered (`systemSeen`); the memory is cleared when full. */
const SYSTEM_LIKENESS_MAX = 4_096;

/** How a process matched a known file. */
export interface SimilarMatch {
  /** The blocked name as configured. */
  blocked: string;
  /** `build_id`: the same ELF build-id; `tlsh`: a digest within the threshold. */
  by: 'build_id' | 'tlsh';
  /** The TLSH distance (0 for a build-id match). */
  distance: number;
}

interface KnownFile {
  blocked: string;
  tlsh: ParsedTlsh | null;
  buildId: BuildId | null;
}

function knownFile(blocked: string, tlsh: string | null | undefined, buildId: string | null | undefined) {
  const parsed = tlsh && isTlsh(tlsh) ? parseTlsh(tlsh) : null;
  const id = buildId && /^(?:[0-9a-f]{2}){8,32}$/.test(buildId) ? buildId : null;
  return parsed || id ? { blocked, tlsh: parsed, buildId: id } : null;
}

/** The blocked programs' known files, and the match of a likeness against them. */
export class SimilarPrograms {
  private fromConfig: KnownFile[] = [];
  /** Learned files by their likeness's key (`tlsh|buildId`), in learning order. */
  private readonly learned = new Map<string, KnownFile>();
  /** Likenesses of system files seen running (system-files.ts), by key (`tlsh|buildId`). */
  private readonly system = new Map<string, KnownFile>();

  /** Takes the config's fingerprints that carry a digest or a build-id (the others are SHA-256 only). */
  setFingerprints(fingerprints: readonly AgentFingerprint[]): void {
    this.fromConfig = [];
    for (const fingerprint of fingerprints) {
      const known = knownFile(fingerprint.process, fingerprint.tlsh, fingerprint.build_id);
      if (known) this.fromConfig.push(known);
    }
  }

  /** Remembers the file of a process this machine ended by name as `blocked`, within the bound. */
  learn(likeness: Likeness, blocked: string): void {
    const key = `${likeness.tlsh ?? ''}|${likeness.buildId ?? ''}`;
    if (this.learned.has(key)) return;
    const known = knownFile(blocked, likeness.tlsh, likeness.buildId);
    // A copy of a system program (a contestant's `cp /bin/sleep <blocked name>`) teaches nothing: its
    // likeness would end that program everywhere on the machine (agent/README.md «Copias modificadas»).
    if (!known || this.matchesSystem(likeness)) return;
    // The build-id learned alone first (it is read before the digest) gives way to the whole likeness.
    if (likeness.tlsh && likeness.buildId) this.learned.delete(`|${likeness.buildId}`);
    setBounded(this.learned, key, known, LEARNED_LIKENESS_MAX);
  }

  /**
   * Remembers the likeness of a system file seen running (system-files.ts) and forgets every learned
   * file it matches (the same build-id, or a digest within `SIMILAR_MAX_DISTANCE`): what a kill by
   * name taught from a copy of a system program is dropped as soon as that program is seen. One map
   * lookup when already seen; else one comparison per learned file.
   */
  systemSeen(likeness: Likeness): void {
    const key = `${likeness.tlsh ?? ''}|${likeness.buildId ?? ''}`;
    if (this.system.has(key)) return;
    const seen = knownFile('', likeness.tlsh, likeness.buildId);
    if (!seen) return;
    if (this.system.size >= SYSTEM_LIKENESS_MAX) this.system.clear();
    this.system.set(key, seen);
    for (const [learnedKey, known] of this.learned) {
      if (closestMatch(likeness, [known])) this.learned.delete(learnedKey);
    }
  }

  /** Whether `likeness` matches a system file seen running (`systemSeen`): never learned, never sent. */
  matchesSystem(likeness: Likeness | null | undefined): boolean {
    return this.system.size > 0 && closestMatch(likeness, [...this.system.values()]) !== null;
  }

  /** Forgets what was learned of the programs `keep` says are no longer blocked. */
  forgetUnless(keep: (blocked: string) => boolean): void {
    for (const [key, known] of this.learned) if (!keep(known.blocked)) this.learned.delete(key);
  }

  /** How many known files there are: none means no process needs its likeness read. */
  get size(): number {
    return this.fromConfig.length + this.learned.size;
  }

  /**
   * The blocked program `likeness` is a copy of, or null: a build-id equal to a known file's first,
   * else the nearest known digest within `SIMILAR_MAX_DISTANCE` (inclusive). A comparison is about
   * 40 table lookups; with at most a few hundred known files it costs microseconds.
   */
  match(likeness: Likeness | null | undefined): SimilarMatch | null {
    return closestMatch(likeness, [...this.fromConfig, ...this.learned.values()]);
  }
}

/** The known file of `all` that `likeness` matches (see `SimilarPrograms.match`), or null. */
function closestMatch(likeness: Likeness | null | undefined, all: readonly KnownFile[]): SimilarMatch | null {
  if (!likeness) return null;
  if (likeness.buildId) {
    const same = all.find((known) => known.buildId === likeness.buildId);
    if (same) return { blocked: same.blocked, by: 'build_id', distance: 0 };
  }
  if (!likeness.tlsh || !isTlsh(likeness.tlsh)) return null;
  const mine = parseTlsh(likeness.tlsh);
  let best: SimilarMatch | null = null;
  for (const known of all) {
    if (!known.tlsh) continue;
    const distance = parsedDistance(mine, known.tlsh);
    if (distance <= SIMILAR_MAX_DISTANCE && (!best || distance < best.distance)) {
      best = { blocked: known.blocked, by: 'tlsh', distance };
    }
  }
  return best;
}
