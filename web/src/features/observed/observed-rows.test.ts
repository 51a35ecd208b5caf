import { describe, expect, it } from 'vitest';
import type { ObservedProcessRow } from '@concurso/shared';
import { contestRow } from '@concurso/shared/test-support/contest-row';
import {
  blockQuestion,
  observedBlockable,
  observedRowId,
  observedState,
  observedTableRows,
} from './observed-rows';
import { localIso } from '../../ui/local-iso.test-support';

const sha = 'ab'.repeat(32);
const row = (overrides: Partial<ObservedProcessRow> = {}): ObservedProcessRow => ({
  name: 'notepad.exe',
  sha256: sha,
  machines: 2,
  teams: ['Los Punteros', 'Recursivos'],
  first_seen: localIso(2026, 10, 22, 9, 0, 5),
  last_seen: localIso(2026, 10, 22, 10, 30, 0),
  count: 5,
  blocked_as: null,
  copy_of: null,
  is_new: false,
  hostname: null,
  path: null,
  ...overrides,
});
const contest = contestRow({ id: 3, date: '2026-11-22' });

describe('/procesosObservados rows', () => {
  it("shows machines, teams, Spanish times and the fingerprint's first digits", () => {
    const [shown] = observedTableRows([row()]);
    expect(shown).toMatchObject({
      name: 'notepad.exe',
      machines: '2 máquinas',
      machineCount: 2,
      teams: 'Los Punteros, Recursivos',
      firstSeen: '22/11/2026 09:00:05',
      lastSeen: '22/11/2026 10:30:00',
      count: 5,
      fingerprint: 'abababababab',
      state: '',
    });
    expect(observedTableRows([row({ machines: 1, sha256: null })])[0]).toMatchObject({
      machines: '1 máquina',
      fingerprint: 'Sin leer',
    });
  });

  it('calls a program only one team ran after the first minutes «Nuevo», with its machine and path', () => {
    const [shown] = observedTableRows([
      row({
        machines: 1,
        teams: ['Recursivos'],
        is_new: true,
        hostname: 'lab-07',
        path: '/home/recursivos/Descargas/rara-tool',
      }),
    ]);
    expect(shown).toMatchObject({
      state: 'Nuevo',
      where: 'lab-07 · /home/recursivos/Descargas/rara-tool',
    });
    // A script an interpreter ran says what ran it; the name the admin blocks stays the file's.
    const [script] = observedTableRows([row({ name: 'chatgpt.py', via: 'python3' })]);
    expect(script).toMatchObject({ name: 'chatgpt.py (vía python3)' });
    expect(script!.source.name).toBe('chatgpt.py');
    // Where it ran is said without «Nuevo» too (one team), and a blocked program is «Bloqueado» first.
    expect(observedTableRows([row({ machines: 1, hostname: 'lab-02', path: null })])[0]).toMatchObject({
      state: '',
      where: 'lab-02',
    });
    expect(observedState({ name: 'rara', blocked_as: 'rara', copy_of: null, is_new: true })).toBe(
      'Bloqueado',
    );
    expect(observedTableRows([row()])[0]!.where).toBe('');
  });

  it('says whether it is blocked, and as which process when its fingerprint caught it', () => {
    expect(observedState({ name: 'Discord.exe', blocked_as: null, copy_of: null })).toBe('');
    expect(observedState({ name: 'discord', blocked_as: 'Discord.exe', copy_of: null })).toBe('Bloqueado');
    expect(observedState({ name: 'notepad.exe', blocked_as: 'chrome.exe', copy_of: null })).toBe(
      'Bloqueado como chrome.exe',
    );
  });

  it('names a copy of a blocked program whose fingerprint is only claimed, and keeps «Bloquear» for it', () => {
    const [copy] = observedTableRows([row({ name: 'calc.exe', copy_of: 'chrome.exe' })]);
    expect(copy!.state).toBe('Copia de chrome.exe (huella sin confirmar)');
    expect(observedBlockable(copy!)).toBe(true);
    // Blocked outright (the fingerprint confirmed): that state wins.
    expect(observedState({ name: 'calc.exe', blocked_as: 'chrome.exe', copy_of: 'chrome.exe' })).toBe(
      'Bloqueado como chrome.exe',
    );
    expect(observedBlockable(observedTableRows([row({ blocked_as: 'chrome.exe' })])[0]!)).toBe(false);
  });

  it('keeps a row id across refetches and tells the fingerprints of one name apart', () => {
    expect(observedRowId(row())).toBe(observedRowId(row({ count: 9, machines: 3 })));
    expect(observedRowId(row())).not.toBe(observedRowId(row({ sha256: 'cd'.repeat(32) })));
    expect(observedRowId(row())).not.toBe(observedRowId(row({ sha256: null })));
  });

  it('asks before blocking, naming the program and the contest', () => {
    expect(blockQuestion(row(), contest)).toEqual({
      title: '¿Bloquear notepad.exe en el concurso 2026B?',
      message:
        'Los agentes lo terminarán en su siguiente actualización (unos 10 segundos) y cada intento contará. ' +
        'Lo reportó: Los Punteros, Recursivos. Su huella se aplicará a las máquinas de esos equipos, que ' +
        'también terminarán copias renombradas; a las de todos los equipos, cuando un administrador la ' +
        'confirme en Procesos › Huellas o cuando la reporten varios equipos.',
      confirmLabel: 'Sí, bloquear',
      cancelLabel: 'Cancelar',
    });
    // Who reported it is shown before confirming; one team reads in the singular.
    expect(blockQuestion(row({ teams: ['Los Punteros'] }), contest).message).toContain(
      'Lo reportó: Los Punteros. Su huella se aplicará a las máquinas de ese equipo,',
    );
    expect(blockQuestion(row({ sha256: null }), contest).message).not.toContain('huella');
  });
});
