import { describe, expect, it } from 'vitest';
import { isSimilarTlsh, isTlsh, parseTlsh, SIMILAR_MAX_DISTANCE, tlshDistance } from './similarity.js';

// The pair of the `tlsh` npm package's own tests (and Trend Micro's): distance 121 with the length term.
const A = '09F05A198CC69A5A4F0F9380A9EE93F2B927CF42089EA74276DC5F0BB2D34E68114448';
const B = '301124198C869A5A4F0F9380A9AE92F2B9278F42089EA34272885F0FB2D34E6911444C';

/** `digest` with body byte `index` (0-based, after the 3 header bytes) set to `value`. */
const withBodyByte = (digest: string, index: number, value: number) =>
  digest.slice(0, 6 + 2 * index) +
  value.toString(16).toUpperCase().padStart(2, '0') +
  digest.slice(8 + 2 * index);

describe('TLSH distance and threshold (shared by agent and server)', () => {
  it("gives the reference distance of the tlsh package's pair, 0 to itself, either case", () => {
    expect(tlshDistance(A, B)).toBe(121);
    expect(tlshDistance(B, A)).toBe(121);
    expect(tlshDistance(A, A)).toBe(0);
    expect(tlshDistance(A.toLowerCase(), A)).toBe(0);
  });

  it('calls two digests the same program only within SIMILAR_MAX_DISTANCE', () => {
    // Each body byte 0x00 → 0xFF moves its four bit pairs by 3: 4 × 6 = 24 per byte.
    const near = withBodyByte(withBodyByte(A, 0, 0x00), 1, 0x00);
    const base = withBodyByte(withBodyByte(A, 0, 0x01), 1, 0x00);
    expect(tlshDistance(near, base)).toBe(1);
    expect(isSimilarTlsh(near, base)).toBe(true);
    const far = withBodyByte(near, 0, 0xff);
    expect(tlshDistance(near, far)).toBe(24);
    expect(tlshDistance(near, far)).toBeGreaterThan(SIMILAR_MAX_DISTANCE);
    expect(isSimilarTlsh(near, far)).toBe(false);
    expect(isSimilarTlsh(A, B)).toBe(false);
  });

  it('never throws on what an agent may send that is no TLSH digest', () => {
    expect(isTlsh(`T1${A}`)).toBe(false);
    expect(isSimilarTlsh(`T1${A}`, A)).toBe(false);
    expect(isSimilarTlsh('96:abc:def', '96:abc:def')).toBe(false);
    expect(isSimilarTlsh(null, A)).toBe(false);
    expect(() => parseTlsh('zz')).toThrow();
  });
});
