import { describe, expect, it } from 'vitest';
import { LAB_POLICY_GRACE_MS } from '@concurso/shared';
import { LabPolicyGrace } from '../src/modules/agent/lab-policy-grace.js';

/**
 * The lab board's grace after a policy change (`LAB_POLICY_GRACE_MS`): the policy current just before a
 * change still counts for a machine for that long, never before a change was seen, never after.
 */
describe('the policy grace of the lab board', () => {
  it('gives the previous policy for the grace after a change, then none', () => {
    const grace = new LabPolicyGrace();
    const t0 = 1_000_000;
    // First sight of a team: no predecessor, no grace.
    expect(grace.previousInGrace(7, 'v1', t0)).toBeNull();
    expect(grace.previousInGrace(7, 'v1', t0 + 60_000)).toBeNull();
    // A change: v1 counts from the read that sees it until the grace ends.
    expect(grace.previousInGrace(7, 'v2', t0 + 61_000)).toBe('v1');
    expect(grace.previousInGrace(7, 'v2', t0 + 61_000 + LAB_POLICY_GRACE_MS - 1)).toBe('v1');
    expect(grace.previousInGrace(7, 'v2', t0 + 61_000 + LAB_POLICY_GRACE_MS)).toBeNull();
    // Another team is its own.
    expect(grace.previousInGrace(8, 'v2', t0 + 61_000)).toBeNull();
    // Two quick changes: only the one just before the newest counts.
    expect(grace.previousInGrace(7, 'v3', t0 + 100_000)).toBe('v2');
    expect(grace.previousInGrace(7, 'v4', t0 + 101_000)).toBe('v3');
  });
});
