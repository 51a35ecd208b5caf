/**
 * mulberry32, a small seeded PRNG: with the same seed it gives the same sequence on every run, so
 * demo data (server/src/db/demo-seed.ts) and benchmark frames (bench/push-transport.ts) are the same
 * each time. Answers a function returning numbers in [0, 1). Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
