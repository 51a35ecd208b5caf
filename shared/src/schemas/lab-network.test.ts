import { describe, expect, it } from 'vitest';
import { agentHeartbeatSchema } from './agent.js';
import { LAB_NETWORK_FILTER_TEXTS, labNetworkState } from './lab.js';
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

describe('how a machine filters the allowed host names', () => {
  const withNames = { ...inForce, network_hosts: true };

  it('is said after «aplicada» when the policy lists a name: by name on Linux, only by address on Windows', () => {
    expect(labNetworkState({ ...withNames, network_filter: 'name', os: 'linux 6.1.0' })).toEqual({
      text: 'red: v3 aplicada (filtro por nombre)',
      tone: 'ok',
    });
    expect(labNetworkState({ ...withNames, network_filter: 'address', os: 'win32 10.0.19045' })).toEqual({
      text: 'red: v3 aplicada (solo por dirección: Windows no filtra por nombre)',
      tone: 'ok',
    });
    // Another system filtering by address is not said to be Windows.
    expect(labNetworkState({ ...withNames, network_filter: 'address', os: 'linux 6.1.0' }).text).toBe(
      'red: v3 aplicada (solo por dirección)',
    );
    expect(LAB_NETWORK_FILTER_TEXTS.byAddressWindows).toBe(
      'solo por dirección: Windows no filtra por nombre',
    );
  });

  it('is not said without a name in the policy, from an agent that never said, nor over the other states', () => {
    expect(
      labNetworkState({ ...inForce, network_hosts: false, network_filter: 'address', os: 'win32 10' }).text,
    ).toBe('red: v3 aplicada');
    expect(labNetworkState({ ...withNames, network_filter: null, os: 'win32 10' }).text).toBe(
      'red: v3 aplicada',
    );
    expect(
      labNetworkState({ ...withNames, network_filter: 'name', network_unresolved: ['a.com'] }).text,
    ).toBe('red: v3 aplicada en parte: no se resolvió a.com');
    expect(labNetworkState({ ...withNames, network_filter: 'name', network_version: 2 }).text).toBe(
      'red: v2 (actual v3)',
    );
  });

  it('is carried by the heartbeat as name or address only', () => {
    expect(agentHeartbeatSchema.parse({ network_filter: 'name' }).network_filter).toBe('name');
    expect(agentHeartbeatSchema.parse({ network_filter: 'address' }).network_filter).toBe('address');
    expect(agentHeartbeatSchema.parse({}).network_filter).toBeUndefined();
    expect(agentHeartbeatSchema.safeParse({ network_filter: 'sni' }).success).toBe(false);
  });
});
