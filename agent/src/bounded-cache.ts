/**
 * The agent's bounded memories: what it learns from a contestant's machine (fingerprints, likenesses,
 * file reads) must never grow without bound, so each map keeps at most `max` entries and forgets the
 * oldest first (a `Map` iterates in insertion order).
 */

/** Sets `key` in `map`, first forgetting the oldest entry when `map` already holds `max`. */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.has(key) && map.size >= max) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}

/**
 * Answers remembered by key, at most `max` (the oldest forgotten first), with the work in progress
 * shared: callers of one key while its work runs get the same promise, so the work runs once.
 */
export class OnceCache<V> {
  /** The answers, in insertion order (= age). */
  readonly done = new Map<string, V>();
  private readonly pending = new Map<string, Promise<V>>();

  constructor(private readonly max: number) {}

  /** The remembered answer (after `onHit`), the one in progress, or `work()`'s, remembered when it ends. */
  get(key: string, work: () => Promise<V>, onHit: () => void = () => undefined): Promise<V> {
    if (this.done.has(key)) {
      onHit();
      return Promise.resolve(this.done.get(key)!);
    }
    const pending = this.pending.get(key);
    if (pending) return pending;
    const run = work().then((value) => {
      this.pending.delete(key);
      setBounded(this.done, key, value, this.max);
      return value;
    });
    this.pending.set(key, run);
    return run;
  }
}
