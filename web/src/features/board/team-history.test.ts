import { describe, expect, it } from 'vitest';
import { MESSAGES, type StatusChangeRow } from '@concurso/shared';
import {
  attemptHistoryLine,
  statusHistoryLine,
  teamAttemptsLogQuery,
  teamStatusLogQuery,
} from './team-history';
import { localIso } from '../../ui/local-iso.test-support';

const change = (overrides: Partial<StatusChangeRow>): StatusChangeRow => ({
  id: 7,
  from: { id: 1, status: 'Activo' },
  to: { id: 2, status: 'Descalificado' },
  user: { id: 3, name: 'Mtra. Ana Ruiz' },
  automatic: false,
  at: localIso(2026, 10, 22, 18, 4, 5),
  ...overrides,
});

describe("the board's team history", () => {
  it('shows an attempt with both clocks in Spanish form and whether it was ended', () => {
    expect(
      attemptHistoryLine({
        id: 4,
        process: 'chrome.exe',
        executable: null,
        killed: false,
        occurred_at: localIso(2026, 10, 22, 18, 3, 59),
        received_at: localIso(2026, 10, 22, 18, 4, 1),
      }),
    ).toEqual({
      id: 4,
      process: 'chrome.exe',
      occurredAt: '22/11/2026 18:03:59',
      receivedAt: '22/11/2026 18:04:01',
      killed: 'No',
    });
  });

  it('names a renamed copy caught by its fingerprint with the name it ran as', () => {
    const line = attemptHistoryLine({
      id: 5,
      process: 'chrome.exe',
      executable: 'notepad.exe',
      killed: true,
      occurred_at: localIso(2026, 10, 22, 18, 3, 59),
      received_at: localIso(2026, 10, 22, 18, 4, 1),
    });
    expect(line.process).toBe('chrome.exe, renombrado como notepad.exe');
  });

  it('says what ran a program run by an interpreter or the loader', () => {
    const base = {
      id: 6,
      process: 'chatgpt',
      executable: null,
      killed: true,
      occurred_at: localIso(2026, 10, 22, 18, 3, 59),
      received_at: localIso(2026, 10, 22, 18, 4, 1),
    };
    expect(attemptHistoryLine({ ...base, via: 'python3' }).process).toBe('chatgpt (vía python3)');
    expect(attemptHistoryLine({ ...base, executable: 'notas', via: 'ld-linux-x86-64.so.2' }).process).toBe(
      'chatgpt, renombrado como notas (vía ld-linux-x86-64.so.2)',
    );
    expect(attemptHistoryLine({ ...base, via: null }).process).toBe('chatgpt');
  });

  it("shows a status change as 'from → to', who and when", () => {
    expect(statusHistoryLine(change({}))).toEqual({
      id: 7,
      change: 'Activo → Descalificado',
      who: 'Mtra. Ana Ruiz',
      at: '22/11/2026 18:04:05',
      automatic: false,
    });
  });

  it("names the server's automatic block 'automático' and a deleted judge 'Usuario eliminado'", () => {
    expect(statusHistoryLine(change({ user: null, automatic: true })).who).toBe(MESSAGES.automaticBlock);
    expect(statusHistoryLine(change({ user: null })).who).toBe('Usuario eliminado');
  });

  it("keys both logs under the team's id, apart from other teams", () => {
    expect(teamAttemptsLogQuery(5).queryKey).toEqual([
      'teams',
      '/api/teamAttemptsLog/:teamId',
      { teamId: 5 },
    ]);
    expect(teamStatusLogQuery(5).queryKey).toEqual(['teams', '/api/teamStatusLog/:teamId', { teamId: 5 }]);
    expect(teamStatusLogQuery(6).queryKey).not.toEqual(teamStatusLogQuery(5).queryKey);
  });
});
