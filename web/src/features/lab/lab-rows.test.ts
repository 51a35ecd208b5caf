import { describe, expect, it } from 'vitest';
import type { LabMachine } from '@concurso/shared';
import { localIso } from '../../ui/local-iso.test-support';
import { createHeadlessTable } from '../../ui/data-table/headless-table';
import { dataTableOptions } from '../../ui/data-table/table-model';
import { LAB_COLUMNS } from './lab-columns';
import {
  agoText,
  clockOffsetText,
  labTableRows,
  removeMachineQuestion,
  teamsWithoutMachine,
} from './lab-rows';

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
  alert_since: null,
  network_version: 0,
  network_current: 0,
  network_restricted: false,
  network_error: null,
  ...overrides,
});

describe('/laboratorio rows', () => {
  it('shows a ready machine: since when, its policy up to date, its clock ahead', () => {
    expect(labTableRows([machine()])[0]).toEqual({
      id: 1,
      machineId: 31,
      teamId: 4,
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
      agentState: 'en_linea',
      network: 'red: sin restricciones',
      networkTone: 'neutral',
    });
  });

  it('shows an old policy as «Atrasada» and a silent machine since its last signal, with its alert', () => {
    const now = Date.parse(localIso(2026, 10, 26, 9, 32, 10));
    const [silent, stale] = labTableRows(
      [
        machine({ policy_state: 'atrasada', policy_version: 'viejo' }),
        machine({ online: false, policy_state: 'sin_senal', alert: 'sin_senal', clock_offset_ms: null }),
      ],
      now,
    );
    expect(stale!.policy).toBe('Atrasada');
    expect(silent).toMatchObject({
      seen: 'Sin señal desde 26/11/2026 09:30:00',
      policy: 'Sin señal',
      clock: '',
      agent: 'Agente sin señal hace 2 min',
      agentState: 'alarma',
    });
  });

  it('says «Detenido», not «Sin señal», for the policy of a machine stopped the documented way', () => {
    const now = Date.parse(localIso(2026, 10, 26, 9, 32, 10));
    const rows = labTableRows(
      [
        machine({ online: false, policy_state: 'sin_senal', alert: 'detenido' }),
        machine({ online: false, policy_state: 'sin_senal', alert: 'sin_reanudar' }),
      ],
      now,
    );
    expect(rows.map((row) => row.policy)).toEqual(['Detenido', 'Detenido']);
  });

  it('shows each machine its own alert while another of its team beats, and no address as empty', () => {
    const [silent, beating] = labTableRows(
      [
        machine({ hostname: 'lab-a1' }),
        machine({ id: 32, hostname: 'lab-a2', online: false, alert: 'sin_senal', address: null }),
      ],
      Date.parse(localIso(2026, 10, 26, 9, 30, 45)),
    );
    expect(beating).toMatchObject({ hostname: 'lab-a1', agent: 'Agente en línea', machineId: 31 });
    expect(silent).toMatchObject({
      hostname: 'lab-a2',
      agent: 'Agente sin señal hace 45 s',
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

  it('shows the network policy as the shared text, by tone', () => {
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

  it('says a clock behind with its sign, and one that rounds to zero as «0.0 s» (never «-0.0 s»)', () => {
    expect(clockOffsetText(-300)).toBe('-0.3 s');
    expect(clockOffsetText(2_049)).toBe('+2.0 s');
    expect(clockOffsetText(0)).toBe('0.0 s');
    expect(clockOffsetText(-40)).toBe('0.0 s');
    expect(clockOffsetText(-50)).toBe('0.0 s');
    expect(clockOffsetText(49)).toBe('0.0 s');
    expect(clockOffsetText(-51)).toBe('-0.1 s');
  });

  it('puts silent and stopped machines first, in red, with how long, ahead of those that beat', () => {
    const now = Date.parse(localIso(2026, 10, 26, 10, 0, 0));
    const machines = [
      machine({ id: 1, team: { id: 1, name: 'A Beating' }, hostname: 'lab-01' }),
      machine({ id: 2, team: { id: 2, name: 'B Beating' }, hostname: 'lab-02' }),
      machine({
        id: 3,
        team: { id: 3, name: 'C Stopped' },
        hostname: 'lab-03',
        online: false,
        alert: 'detenido',
        alert_since: localIso(2026, 10, 26, 9, 59, 48),
      }),
      machine({ id: 4, team: { id: 4, name: 'D Beating' }, hostname: 'lab-04' }),
      machine({
        id: 5,
        team: { id: 5, name: 'E Not Resumed' },
        hostname: 'lab-05',
        online: false,
        alert: 'sin_reanudar',
        alert_since: localIso(2026, 10, 26, 9, 55, 0),
      }),
      machine({ id: 6, team: { id: 6, name: 'F Beating' }, hostname: 'lab-06' }),
      machine({
        id: 7,
        team: { id: 7, name: 'G Silent' },
        hostname: 'lab-07',
        online: false,
        alert: 'sin_senal',
        last_seen: localIso(2026, 10, 26, 8, 58, 0),
        alert_since: localIso(2026, 10, 26, 8, 58, 0),
      }),
    ];
    const rows = labTableRows(machines, now);
    expect(rows[2]!.seen).toBe('Detenido desde 26/11/2026 09:59:48');
    expect(rows.map((row) => [row.hostname, row.agent, row.agentState])).toEqual([
      ['lab-05', 'Agente detenido sin reanudar hace 5 min', 'alarma'],
      ['lab-07', 'Agente sin señal hace 1 h 2 min', 'alarma'],
      ['lab-03', 'Agente detenido hace 12 s', 'detenido'],
      ['lab-01', 'Agente en línea', 'en_linea'],
      ['lab-02', 'Agente en línea', 'en_linea'],
      ['lab-04', 'Agente en línea', 'en_linea'],
      ['lab-06', 'Agente en línea', 'en_linea'],
    ]);
    // The table's default order (its first column, AGENTE, descending) keeps them on the first page.
    const table = createHeadlessTable(
      dataTableOptions(labTableRows([...machines].reverse(), now), LAB_COLUMNS),
    );
    expect(table.getState().sorting).toEqual([{ id: 'agent', desc: true }]);
    expect(table.getRowModel().rows.map((row) => row.original.hostname)).toEqual([
      'lab-07',
      'lab-05',
      'lab-03',
      'lab-06',
      'lab-04',
    ]);
  });

  it('says how long ago in seconds, minutes, then hours', () => {
    expect(agoText(-500)).toBe('0 s');
    expect(agoText(59_999)).toBe('59 s');
    expect(agoText(120_000)).toBe('2 min');
    expect(agoText(3_900_000)).toBe('1 h 5 min');
  });

  it('lists under «Sin agente en marcha» only the teams with no machine on the table', () => {
    const stopped = machine({ team: { id: 4, name: 'Los Punteros' }, online: false, alert: 'detenido' });
    expect(
      teamsWithoutMachine({
        missing: [
          { id: 4, name: 'Los Punteros', level: 'Básico' },
          { id: 9, name: 'Nunca Empezó', level: 'Avanzado' },
        ],
        machines: [stopped],
      }),
    ).toEqual([{ id: 9, name: 'Nunca Empezó', level: 'Avanzado' }]);
  });
});
