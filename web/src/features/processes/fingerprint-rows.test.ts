import { describe, expect, it } from 'vitest';
import type { ProcessFingerprintRow } from '@concurso/shared';
import { contestRow } from '@concurso/shared/test-support/contest-row';
import { formatDateTime } from '../../ui/date-time';
import {
  appliesTo,
  confirmDeniedQuestion,
  confirmQuestion,
  deleteQuestion,
  deniedTableRows,
  fingerprintTableRows,
  fingerprintsIntro,
} from './fingerprint-rows';

const sha = 'ab'.repeat(32);
const row = (overrides: Partial<ProcessFingerprintRow> = {}): ProcessFingerprintRow => ({
  id: 7,
  sha256: sha,
  confirmed: false,
  teams: 1,
  first_team: { id: 1, name: 'Los Lambdas', at: '2026-11-24T10:00:00.000Z' },
  last_team: { id: 2, name: 'Recursivos', at: '2026-11-24T10:05:00.000Z' },
  created_at: '2026-11-24T10:00:00.000Z',
  applies_to_all: false,
  claimants: [
    { id: 1, name: 'Los Lambdas', at: '2026-11-24T10:00:00.000Z' },
    { id: 2, name: 'Recursivos', at: '2026-11-24T10:05:00.000Z' },
  ],
  suspect: null,
  repeated_by: [],
  ...overrides,
});
const contest = contestRow({ date: '2026-11-21' });

describe('Procesos › Huellas', () => {
  it('shows state, reach and who reported each fingerprint', () => {
    const [shown] = fingerprintTableRows([row()]);
    expect(shown).toEqual({
      id: 7,
      fingerprint: 'abababababababab',
      sha256: sha,
      state: 'Sin confirmar',
      appliesTo: 'Solo las del equipo que la reportó',
      teams: 1,
      firstReport: `Los Lambdas, ${formatDateTime('2026-11-24T10:00:00.000Z')}`,
      lastReport: `Recursivos, ${formatDateTime('2026-11-24T10:05:00.000Z')}`,
      claimants: 'Los Lambdas, Recursivos',
      alerts: [],
      confirmed: false,
      suspect: false,
    });
    expect(fingerprintTableRows([row({ confirmed: true, applies_to_all: true })])[0]).toMatchObject({
      state: 'Confirmada',
      appliesTo: 'Todas las máquinas',
    });
    expect(appliesTo({ applies_to_all: false, teams: 2 })).toBe(
      'Solo las de los 2 equipos que la reportaron',
    );
    expect(appliesTo({ applies_to_all: false, teams: 0 })).toBe('Ninguna máquina');
    expect(fingerprintTableRows([row({ first_team: null, last_team: null, teams: 0 })])[0]!.firstReport).toBe(
      '—',
    );
  });

  it('explains the quorum and asks before confirming or removing', () => {
    expect(fingerprintsIntro({ process: { id: 1, name: 'chrome.exe' }, quorum: 3 })).toContain(
      'hasta que la confirme o la reporten 3 equipos distintos',
    );
    const [shown] = fingerprintTableRows([row()]);
    expect(confirmQuestion(shown!, 'chrome.exe', contest)).toMatchObject({
      title: '¿Confirmar la huella abababababababab… de chrome.exe?',
      confirmLabel: 'Sí, confirmar',
    });
    expect(confirmQuestion(shown!, 'chrome.exe', contest).message).toContain(
      'Todas las máquinas del concurso 2026B',
    );
    expect(deleteQuestion(shown!, 'chrome.exe')).toMatchObject({
      title: '¿Eliminar la huella abababababababab… de chrome.exe?',
      confirmLabel: 'Sí, eliminar',
    });
  });

  it('marks suspect claims and the same teams claiming over and over, and lists denied hashes (docs/design.md section 6a)', () => {
    const [suspect] = fingerprintTableRows([
      row({ suspect: 'code.exe', teams: 3, applies_to_all: false, repeated_by: ['Alfa', 'Beta', 'Gamma'] }),
    ]);
    expect(suspect).toMatchObject({
      state: 'Sospechosa',
      appliesTo: 'Ninguna máquina',
      suspect: true,
      alerts: [
        'Sospechosa: coincide con un programa permitido (code.exe)',
        'Reclamada repetidamente por los mismos equipos (Alfa, Beta, Gamma)',
      ],
    });
    expect(fingerprintTableRows([row({ repeated_by: [] })])[0]!.alerts).toEqual([]);

    const [denied] = deniedTableRows([
      {
        id: 3,
        sha256: sha,
        process: { id: 9, name: 'chrome.exe' },
        denied_by: 'Admin Uno',
        denied_at: '2026-11-24T11:00:00.000Z',
      },
    ]);
    expect(denied).toEqual({
      id: 3,
      fingerprint: 'abababababababab',
      sha256: sha,
      state: 'Denegada',
      process: 'chrome.exe',
      denied: `Admin Uno, ${formatDateTime('2026-11-24T11:00:00.000Z')}`,
    });
    expect(confirmDeniedQuestion(denied!, contest).message).toContain('como chrome.exe');
    expect(deleteQuestion(fingerprintTableRows([row()])[0]!, 'chrome.exe').message).toContain(
      'quedará denegada en el concurso',
    );
  });
});
