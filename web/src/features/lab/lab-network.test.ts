import { describe, expect, it } from 'vitest';
import { labMachineSchema, type LabMachine } from '@concurso/shared';
import { LAB_NETWORK_PALETTES, labTableRows } from './lab-rows';

/** A machine of the active contest with network policy v3 in force (the server's shape). */
const machine = (overrides: Partial<LabMachine> = {}): LabMachine =>
  labMachineSchema.parse({
    id: 7,
    team: { id: 4, name: 'Los Punteros' },
    level: { id: 1, level: 'Básico' },
    hostname: 'lab-a1',
    os: 'linux 6.1.0',
    version: '1.4.0',
    online: true,
    address: '10.0.7.21',
    online_since: '2026-11-26T09:00:05.000Z',
    last_seen: '2026-11-26T09:30:00.000Z',
    policy_version: 'abc',
    policy_current: 'abc',
    policy_state: 'al_dia',
    clock_offset_ms: 0,
    alert: null,
    network_version: 3,
    network_current: 3,
    network_restricted: true,
    network_error: null,
    ...overrides,
  });

describe('RED of /laboratorio when allowed names did not resolve', () => {
  it('is amber with the names, not a green «aplicada»', () => {
    const [row] = labTableRows([machine({ network_unresolved: ['omegaup.com', 'docs.python.org'] })]);
    expect(row!.network).toBe('red: v3 aplicada en parte: no se resolvieron omegaup.com, docs.python.org');
    expect(row!.networkTone).toBe('warning');
    expect(LAB_NETWORK_PALETTES[row!.networkTone]).toBe('orange');
  });

  it('turns green «aplicada» once they resolve (the list is empty or absent)', () => {
    for (const resolved of [machine({ network_unresolved: [] }), machine()]) {
      const [row] = labTableRows([resolved]);
      expect([row!.network, LAB_NETWORK_PALETTES[row!.networkTone]]).toEqual(['red: v3 aplicada', 'green']);
    }
  });
});

describe('RED of /laboratorio for how a machine filters the allowed names', () => {
  it('says by name on Linux and only by address on Windows, both green', () => {
    const [linux, windows] = labTableRows([
      machine({ hostname: 'lab-a1', network_hosts: true, network_filter: 'name' }),
      machine({ hostname: 'lab-a2', os: 'win32 10.0.19045', network_hosts: true, network_filter: 'address' }),
    ]);
    expect([linux!.network, LAB_NETWORK_PALETTES[linux!.networkTone]]).toEqual([
      'red: v3 aplicada (filtro por nombre)',
      'green',
    ]);
    expect([windows!.network, LAB_NETWORK_PALETTES[windows!.networkTone]]).toEqual([
      'red: v3 aplicada (solo por dirección: Windows no filtra por nombre)',
      'green',
    ]);
  });
});
