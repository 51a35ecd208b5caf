import { describe, expect, it } from 'vitest';
import {
  agentAttemptSchema,
  agentConfigSchema,
  agentFingerprintSchema,
  agentObservedProcessSchema,
  isClaimMatch,
  SIMILARITY_DIGEST_MAX_LENGTH,
} from './agent.js';

const SHA = 'a'.repeat(64);
const TLSH = `T1${'0123456789ABCDEF'.repeat(5).slice(0, 70)}`;
const SSDEEP = '96:s4Ud+ahtbyb4MRYPdRmHldbn7xB5Gc3:sz+S1RCdR4/7bXA';
const BUILD_ID = '4f2a9c0d1e2b3a4c5d6e7f8091a2b3c4d5e6f708';
const now = new Date().toISOString();
const attempt = { event_id: 'evt-00000001', process: 'chatgpt', occurred_at: now };
const observed = { name: 'chatgpt', sha256: SHA, first_seen: now, last_seen: now, starts: 1 };

describe('similarity digest and build-id in the agent schemas', () => {
  it('keeps an old agent valid: attempts, observed rows and fingerprints without the new fields', () => {
    expect(agentAttemptSchema.safeParse({ ...attempt, sha256: SHA, match: 'huella' }).success).toBe(true);
    expect(agentObservedProcessSchema.safeParse(observed).success).toBe(true);
    expect(agentFingerprintSchema.safeParse({ process: 'chatgpt', sha256: SHA }).success).toBe(true);
  });

  it("accepts a TLSH or ssdeep digest, a build-id and match 'similar'", () => {
    for (const tlsh of [TLSH, SSDEEP]) {
      const parsed = agentAttemptSchema.parse({
        ...attempt,
        sha256: SHA,
        match: 'similar',
        tlsh,
        build_id: BUILD_ID,
      });
      expect(parsed).toMatchObject({ match: 'similar', tlsh, build_id: BUILD_ID });
      expect(agentObservedProcessSchema.parse({ ...observed, tlsh, build_id: BUILD_ID })).toMatchObject({
        tlsh,
      });
    }
    const config = agentConfigSchema.shape.fingerprints.parse([
      { process: 'chatgpt', sha256: SHA, tlsh: TLSH, build_id: BUILD_ID },
    ]);
    expect(config).toEqual([{ process: 'chatgpt', sha256: SHA, tlsh: TLSH, build_id: BUILD_ID }]);
  });

  it('refuses an oversized digest, a foreign charset and a malformed build-id', () => {
    const bad = [
      { tlsh: 'T'.repeat(SIMILARITY_DIGEST_MAX_LENGTH + 1) },
      { tlsh: 'T1<script>' },
      { tlsh: 'T1 00' },
      { tlsh: '' },
      { build_id: 'ABCDEF0123456789' },
      { build_id: 'abc' },
      { build_id: 'a'.repeat(66) },
      { build_id: '0123456789abcdef0' },
    ];
    for (const fields of bad) {
      expect(agentAttemptSchema.safeParse({ ...attempt, ...fields }).success, JSON.stringify(fields)).toBe(
        false,
      );
      expect(agentObservedProcessSchema.safeParse({ ...observed, ...fields }).success).toBe(false);
    }
    expect(agentAttemptSchema.safeParse({ ...attempt, match: 'parecido' }).success).toBe(false);
  });

  it("counts only a kill by name as a claim: never 'huella' nor 'similar'", () => {
    expect(isClaimMatch(undefined)).toBe(true);
    expect(isClaimMatch('nombre')).toBe(true);
    expect(isClaimMatch('huella')).toBe(false);
    expect(isClaimMatch('similar')).toBe(false);
  });
});
