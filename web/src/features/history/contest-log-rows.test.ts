import { describe, expect, it } from 'vitest';
import { CONTEST_LOG_HEADERS, MESSAGES, type ContestLogRow, type TeamRow } from '@concurso/shared';
import { createHeadlessTable } from '../../ui/data-table/headless-table';
import { dataTableOptions } from '../../ui/data-table/table-model';
import { extractExportData } from '../../ui/data-table/export-data';
import { CONTEST_LOG_COLUMNS } from './contest-log-columns';
import {
  KIND_FILTER_OPTIONS,
  contestLogRowId,
  contestLogTableRows,
  idFilter,
  kindFilter,
  processFilterOptions,
  teamFilterOptions,
} from './contest-log-rows';
import { localIso } from '../../ui/local-iso.test-support';

const team = { id: 4, name: 'Los Punteros' };
const level = { id: 1, level: 'Básico' };
const attempt = (id: number, at: string, killed = true): ContestLogRow => ({
  kind: 'intento',
  id,
  at,
  team,
  level,
  process: 'chrome.exe',
  executable: null,
  killed,
  occurred_at: localIso(2026, 10, 2, 9, 0, 1),
  from: null,
  to: null,
  user: null,
  automatic: false,
  agent_event: null,
  last_seen: null,
  silence_ms: null,
  hostname: null,
  message: null,
  message_target: null,
  message_receipts: null,
  network_version: null,
  allowed_sites: null,
});
const change = (id: number, at: string, user: string | null, automatic = false): ContestLogRow => ({
  kind: 'estatus',
  id,
  at,
  team,
  level,
  process: null,
  executable: null,
  killed: null,
  occurred_at: null,
  from: 'Activo',
  to: 'Descalificado',
  user,
  automatic,
  agent_event: null,
  last_seen: null,
  silence_ms: null,
  hostname: null,
  message: null,
  message_target: null,
  message_receipts: null,
  network_version: null,
  allowed_sites: null,
});

// Newest first, as the server answers: across a month end, where the dd/mm text sorts the other way.
const LOG: ContestLogRow[] = [
  change(3, localIso(2026, 10, 2, 9, 0, 5), null, true),
  attempt(3, localIso(2026, 10, 2, 9, 0, 5), false),
  change(2, localIso(2026, 9, 30, 18, 0, 0), 'Mtra. Ana Ruiz'),
  change(1, localIso(2026, 9, 30, 17, 0, 0), null),
];

describe('/bitacora rows', () => {
  it('shows an attempt with its process, clocks and whether it was ended, and nothing of a change', () => {
    expect(contestLogTableRows(LOG)[1]).toEqual({
      id: 18,
      order: 3,
      at: '02/11/2026 09:00:05',
      kind: 'Intento',
      team: 'Los Punteros',
      level: 'Básico',
      process: 'chrome.exe',
      killed: 'No',
      occurredAt: '02/11/2026 09:00:01',
      change: '',
      who: '',
      attempt: { teamId: 4, attemptId: 3 },
    });
  });

  it('names a renamed copy with the name it ran as', () => {
    const [row] = contestLogTableRows([
      { ...attempt(3, localIso(2026, 10, 2, 9, 0, 2)), executable: 'notepad.exe' },
    ]);
    expect(row?.process).toBe('chrome.exe, renombrado como notepad.exe');
  });

  it('says what ran a program run by an interpreter', () => {
    const [row] = contestLogTableRows([{ ...attempt(3, localIso(2026, 10, 2, 9, 0, 2)), via: 'python3' }]);
    expect(row?.process).toBe('chrome.exe (vía python3)');
  });

  it("shows a status change with 'from → to' and who: the judge, 'automático' or 'Usuario eliminado'", () => {
    const rows = contestLogTableRows(LOG);
    expect(rows[2]).toMatchObject({
      id: 13,
      kind: 'Cambio de estatus',
      process: '',
      killed: '',
      occurredAt: '',
      change: 'Activo → Descalificado',
      who: 'Mtra. Ana Ruiz',
    });
    expect(rows.map((row) => row.who)).toEqual([
      MESSAGES.automaticBlock,
      '',
      'Mtra. Ana Ruiz',
      'Usuario eliminado',
    ]);
  });

  it("shows an agent's event with its last signal or its silence, and no process or who", () => {
    const agentRow = (
      id: number,
      event: 'sin_senal' | 'en_linea',
      silence: number | null,
    ): ContestLogRow => ({
      ...change(id, localIso(2026, 10, 2, 10, 0, 0), null),
      kind: 'agente',
      from: null,
      to: null,
      agent_event: event,
      last_seen: localIso(2026, 10, 2, 9, 59, 30),
      silence_ms: silence,
    });
    const [silent, back] = contestLogTableRows([
      agentRow(1, 'sin_senal', null),
      agentRow(2, 'en_linea', 95_000),
    ]);
    expect(silent).toMatchObject({
      kind: 'Agente',
      team: 'Los Punteros',
      process: '',
      killed: '',
      change: 'Agente sin señal (última señal 02/11/2026 09:59:30)',
      who: '',
    });
    expect(back!.change).toBe('Agente de nuevo en línea tras 1 min 35 s sin señal');
  });

  it("names the machine of a machine's agent event (presence per machine)", () => {
    const [row] = contestLogTableRows([
      {
        ...change(3, localIso(2026, 10, 2, 10, 0, 0), null),
        kind: 'agente',
        from: null,
        to: null,
        agent_event: 'sin_senal',
        last_seen: localIso(2026, 10, 2, 9, 59, 30),
        hostname: 'lab-07',
      },
    ]);
    expect(row!.change).toBe('Agente sin señal en lab-07 (última señal 02/11/2026 09:59:30)');
  });

  it("shows a judges' message to the team with its receipt and its sender", () => {
    const [row] = contestLogTableRows([
      {
        ...change(5, localIso(2026, 10, 2, 10, 0, 0), 'Mtra. Ana Ruiz'),
        kind: 'mensaje',
        from: null,
        to: null,
        message: '30 minutos restantes',
        message_target: 'Equipo Los Punteros',
        message_receipts: { teams: 1, delivered: 1, seen: 1, failed: 0, failures: [] },
      },
    ]);
    expect(row).toMatchObject({
      kind: 'Mensaje',
      team: 'Los Punteros',
      change: 'Mensaje a Equipo Los Punteros: «30 minutos restantes» — entregado 1/1, visto 1/1',
      who: 'Mtra. Ana Ruiz',
      process: '',
    });
  });

  it('shows a message to every team as one row with its receipts and who could not be shown it', () => {
    const [row] = contestLogTableRows([
      {
        ...change(6, localIso(2026, 10, 2, 10, 0, 0), 'Mtra. Ana Ruiz'),
        kind: 'mensaje',
        team: null,
        level: null,
        from: null,
        to: null,
        message: 'Quedan 30 minutos',
        message_target: 'Todos los equipos',
        message_receipts: {
          teams: 30,
          delivered: 28,
          seen: 20,
          failed: 7,
          failures: [
            { team: 'Los Punteros', hostname: 'lab-05', reason: 'sin sesión gráfica' },
            { team: 'Los Otros', hostname: null, reason: 'zenity no está instalado' },
          ],
        },
      },
    ]);
    expect(row).toMatchObject({
      team: 'Todos',
      level: '',
      change:
        'Mensaje a Todos los equipos: «Quedan 30 minutos» — entregado 28/30, visto 20/30, falló 7 ' +
        '(Los Punteros en lab-05: sin sesión gráfica; Los Otros: zenity no está instalado; y 5 más)',
    });
  });

  it('takes a «Tipo» choice as the kind filter, and «Todos» as none', () => {
    expect(KIND_FILTER_OPTIONS.map((o) => o.label)).toEqual([
      'Intentos',
      'Estatus',
      'Agentes',
      'Mensajes',
      'Red',
      'Pantallas',
    ]);
    expect(KIND_FILTER_OPTIONS.map((o) => kindFilter(o.value))).toEqual([
      'intento',
      'estatus',
      'agente',
      'mensaje',
      'red',
      'pantalla',
    ]);
    expect(kindFilter('')).toBeUndefined();
    expect(kindFilter('todo')).toBeUndefined();
  });

  it("shows a change of the allowed sites as every team's, with its version, the sites and who", () => {
    const networkRow = (id: number, version: number, sites: string[]): ContestLogRow => ({
      ...change(id, localIso(2026, 10, 2, 8, 0, 0), 'Admin Uno'),
      kind: 'red',
      team: null,
      level: null,
      from: null,
      to: null,
      network_version: version,
      allowed_sites: sites,
    });
    const [set, emptied] = contestLogTableRows([
      networkRow(1, 2, ['docs.python.org', '10.0.0.0/8']),
      { ...networkRow(2, 3, []), user: null },
    ]);
    expect(set).toEqual({
      id: 10,
      order: 2,
      at: '02/11/2026 08:00:00',
      kind: 'Red',
      team: 'Todos',
      level: '',
      process: '',
      killed: '',
      occurredAt: '',
      change: 'Sitios permitidos v2: docs.python.org, 10.0.0.0/8',
      who: 'Admin Uno',
      attempt: null,
    });
    expect(emptied).toMatchObject({
      change: 'Sitios permitidos v3: ninguno (red sin restricciones)',
      who: '',
    });
  });

  it('gives every row an id of its own: an attempt, a change and an agent event with the same id differ', () => {
    const ids3 = (['intento', 'estatus', 'agente', 'mensaje', 'red'] as const).map((kind) =>
      contestLogRowId({ kind, id: 3 }),
    );
    expect(new Set(ids3).size).toBe(5);
    // Ids of consecutive rows of every kind never collide (the kind is the residue mod 6).
    const ids = (['intento', 'estatus', 'agente', 'mensaje', 'red', 'pantalla'] as const).flatMap((kind) =>
      [1, 2, 3, 4, 5, 6].map((id) => contestLogRowId({ kind, id })),
    );
    expect(new Set(ids).size).toBe(ids.length);
    const logIds = contestLogTableRows(LOG).map((row) => row.id);
    expect(new Set(logIds).size).toBe(logIds.length);
  });

  it("shows a judge's «Ver pantalla»: the team, the machine (or all of them) and who looked", () => {
    const view = (id: number, hostname: string | null, user: string | null) => ({
      ...attempt(id, localIso(2026, 10, 2, 9, 5, 0)),
      kind: 'pantalla' as const,
      process: null,
      killed: null,
      occurred_at: null,
      hostname,
      user,
    });
    const [one, all] = contestLogTableRows([view(1, 'lab-07', 'Juez Uno'), view(2, null, null)]);
    expect(one).toMatchObject({
      kind: 'Ver pantalla',
      team: 'Los Punteros',
      change: 'Pantalla de lab-07',
      who: 'Juez Uno',
      process: '',
      attempt: null,
    });
    expect(all).toMatchObject({ change: 'Pantalla de sus máquinas', who: 'Usuario eliminado' });
  });

  it("opens newest first in the server's order, sorts back by FECHA, and exports the shown texts", () => {
    const table = createHeadlessTable(dataTableOptions(contestLogTableRows(LOG), CONTEST_LOG_COLUMNS));
    const order = () => table.getRowModel().rows.map((row) => row.original.id);
    expect(order()).toEqual([19, 18, 13, 7]);
    table.getColumn('at')!.toggleSorting(false);
    expect(order()).toEqual([7, 13, 18, 19]);
    const exported = extractExportData(table);
    expect(exported.headers).toEqual(Object.values(CONTEST_LOG_HEADERS));
    expect(exported.rows[0]).toEqual([
      '30/10/2026 17:00:00',
      'Cambio de estatus',
      'Los Punteros',
      'Básico',
      '',
      '',
      '',
      'Activo → Descalificado',
      'Usuario eliminado',
    ]);
  });
});

describe('/bitacora filters', () => {
  const teamRow = (id: number, name: string, levels_id: number, contests_id: number) =>
    ({ id, name, levels_id, contests_id }) as TeamRow;

  it("reads a select's value as an id, 'Todos' as no filter", () => {
    expect(idFilter('12')).toBe(12);
    expect(idFilter('')).toBeUndefined();
    expect(idFilter('0')).toBeUndefined();
  });

  it("offers the active contest's teams, of the chosen level, by name", () => {
    const teams = [
      teamRow(1, 'Bit a Bit', 3, 2),
      teamRow(2, 'Árboles', 1, 2),
      teamRow(3, 'Los Punteros', 1, 2),
      teamRow(4, 'Del semestre pasado', 1, 1),
    ];
    expect(teamFilterOptions(teams, 2, undefined).map((option) => option.label)).toEqual([
      'Árboles',
      'Bit a Bit',
      'Los Punteros',
    ]);
    expect(teamFilterOptions(teams, 2, 1)).toEqual([
      { value: '2', label: 'Árboles' },
      { value: '3', label: 'Los Punteros' },
    ]);
    expect(teamFilterOptions(teams, null, undefined)).toEqual([]);
  });

  it('offers the process names alphabetically', () => {
    expect(
      processFilterOptions([{ name: 'zoom.exe' }, { name: 'Discord.exe' }, { name: 'chrome.exe' }]),
    ).toEqual([
      { value: 'chrome.exe', label: 'chrome.exe' },
      { value: 'Discord.exe', label: 'Discord.exe' },
      { value: 'zoom.exe', label: 'zoom.exe' },
    ]);
  });
});
