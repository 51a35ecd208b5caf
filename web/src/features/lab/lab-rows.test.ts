import { describe, expect, it } from 'vitest';
import type { LabMachine } from '@concurso/shared';
import { localIso } from '../../ui/local-iso.test-support';
import { clockOffsetText, labTableRows, removeMachineQuestion } from './lab-rows';

const machine = (overrides: Partial<LabMachine> = {}): LabMachine => ({
  id: 31,
  team: { id: 4, name: 'Los Punteros' },
  level: { id: 1, level: 'Básico' },
  hostname: 'lab-a1',
  os: 'linux 6.1.0',
  version: '1.4.0',
  online: true,
  address: '10.0.7.21',
  online_since: localIso(2026, 10, 26, 9, 0, 5),
  last_seen: localIso(2026, 10, 26, 9, 30, 0),
  policy_version: 'abc',
  policy_current: 'abc',
  policy_state: 'al_dia',
  clock_offset_ms: 2_049,
  alert: null,
  network_version: 0,
  network_current: 0,
  network_restricted: false,
  network_error: null,
  ...overrides,
});

describe('/laboratorio rows (issue 24)', () => {
  it('shows a ready machine: since when, its policy up to date, its clock ahead', () => {
    expect(labTableRows([machine()])[0]).toEqual({
      id: 1,
      machineId: 31,
      team: 'Los Punteros',
      level: 'Básico',
      hostname: 'lab-a1',
      os: 'linux 6.1.0',
      version: '1.4.0',
      address: '10.0.7.21',
      seen: 'Desde 26/11/2026 09:00:05',
      policy: 'Al día',
      policyState: 'al_dia',
      clock: '+2.0 s',
      agent: 'Agente en línea',
      network: 'red: sin restricciones',
      networkTone: 'neutral',
    });
  });

  it('shows an old policy as «Atrasada» and a silent machine since its last signal, with its alert', () => {
    const [stale, silent] = labTableRows([
      machine({ policy_state: 'atrasada', policy_version: 'viejo' }),
      machine({ online: false, policy_state: 'sin_senal', alert: 'sin_senal', clock_offset_ms: null }),
    ]);
    expect(stale!.policy).toBe('Atrasada');
    expect(silent).toMatchObject({
      seen: 'Sin señal desde 26/11/2026 09:30:00',
      policy: 'Sin señal',
      clock: '',
      agent: 'Agente sin señal',
    });
  });

  it('shows each machine its own alert while another of its team beats, and no address as empty', () => {
    const [beating, silent] = labTableRows([
      machine({ hostname: 'lab-a1' }),
      machine({ id: 32, hostname: 'lab-a2', online: false, alert: 'sin_senal', address: null }),
    ]);
    expect(beating).toMatchObject({ hostname: 'lab-a1', agent: 'Agente en línea', machineId: 31 });
    expect(silent).toMatchObject({
      hostname: 'lab-a2',
      agent: 'Agente sin señal',
      address: '',
      machineId: 32,
    });
  });

  it('asks before «Quitar» naming the machine and its team', () => {
    expect(removeMachineQuestion({ hostname: 'lab-a2', team: 'Los Punteros' })).toMatchObject({
      title: '¿Quitar la máquina lab-a2 de Los Punteros?',
      confirmLabel: 'Sí, quitar',
    });
  });

  it('shows the network policy as the shared text, by tone (issue 25)', () => {
    const rows = labTableRows([
      machine({ network_version: 1, network_current: 1, network_restricted: true }),
      machine({ network_version: 2, network_current: 3, network_restricted: true }),
      machine({ network_version: null, network_current: 1, network_restricted: true }),
      machine({
        network_version: 1,
        network_current: 2,
        network_restricted: true,
        network_error: 'nft no está instalado',
      }),
    ]);
    expect(rows.map((row) => [row.network, row.networkTone])).toEqual([
      ['red: v1 aplicada', 'ok'],
      ['red: v2 (actual v3)', 'warning'],
      ['red: sin informar (actual v1)', 'warning'],
      ['red: no aplicada (nft no está instalado)', 'error'],
    ]);
  });

  it('says a clock behind with its sign', () => {
    expect(clockOffsetText(-300)).toBe('-0.3 s');
    expect(clockOffsetText(0)).toBe('+0.0 s');
  });
});
