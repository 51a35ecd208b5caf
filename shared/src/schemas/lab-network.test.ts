import { describe, expect, it } from 'vitest';
import { agentHeartbeatSchema } from './agent.js';
import { labNetworkState } from './lab.js';
import { NETWORK_UNRESOLVED_MAX } from './network.js';

const inForce = { network_version: 3, network_current: 3, network_restricted: true, network_error: null };

describe('a machine whose allowed names did not all resolve', () => {
  it('is «aplicada» (green) only when every name resolved, amber with the names otherwise', () => {
    expect(labNetworkState(inForce)).toEqual({ text: 'red: v3 aplicada', tone: 'ok' });
    expect(labNetworkState({ ...inForce, network_unresolved: [] })).toEqual({
      text: 'red: v3 aplicada',
      tone: 'ok',
    });
    expect(labNetworkState({ ...inForce, network_unresolved: ['omegaup.com'] })).toEqual({
      text: 'red: v3 aplicada en parte: no se resolvió omegaup.com',
      tone: 'warning',
    });
    expect(labNetworkState({ ...inForce, network_unresolved: ['omegaup.com', 'docs.python.org'] })).toEqual({
      text: 'red: v3 aplicada en parte: no se resolvieron omegaup.com, docs.python.org',
      tone: 'warning',
    });
    // A failure or an older version says that first; no list, no restriction.
    expect(
      labNetworkState({ ...inForce, network_error: 'nft falló', network_unresolved: ['a.com'] }).tone,
    ).toBe('error');
    expect(labNetworkState({ ...inForce, network_version: 2, network_unresolved: ['a.com'] }).text).toBe(
      'red: v2 (actual v3)',
    );
    expect(
      labNetworkState({ ...inForce, network_restricted: false, network_unresolved: ['a.com'] }).text,
    ).toBe('red: sin restricciones');
  });

  it('is said in the heartbeat bounded: a few host names, each of a host name’s characters and length', () => {
    const names = Array.from({ length: NETWORK_UNRESOLVED_MAX }, (_, i) => `sitio-${i}.ejemplo.com`);
    expect(agentHeartbeatSchema.parse({ network_unresolved: names }).network_unresolved).toEqual(names);
    expect(agentHeartbeatSchema.safeParse({ network_unresolved: [...names, 'uno-mas.com'] }).success).toBe(
      false,
    );
    expect(agentHeartbeatSchema.safeParse({ network_unresolved: ['a'.repeat(254)] }).success).toBe(false);
    expect(agentHeartbeatSchema.safeParse({ network_unresolved: ['a'.repeat(253)] }).success).toBe(true);
    for (const bad of ['<b>x</b>', 'a.com, b.com', 'A.COM', 'sitio\u202e.com', ''])
      expect(agentHeartbeatSchema.safeParse({ network_unresolved: [bad] }).success, bad).toBe(false);
  });
});
