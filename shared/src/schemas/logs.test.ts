import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.js';
import {
  agentEventText,
  silenceText,
  DELETED_USER_LABEL,
  contestLogQuerySchema,
  killedLabel,
  statusChangeAuthor,
  statusChangeText,
} from './logs.js';

describe('statusChangeAuthor (who blocked a team)', () => {
  it("names the judge, 'automático' for the server's block, 'Usuario eliminado' for a deleted account", () => {
    expect(statusChangeAuthor({ user: 'Mtra. Ana Ruiz', automatic: false })).toBe('Mtra. Ana Ruiz');
    expect(statusChangeAuthor({ user: null, automatic: true })).toBe(MESSAGES.automaticBlock);
    expect(MESSAGES.automaticBlock).toBe('automático');
    expect(statusChangeAuthor({ user: null, automatic: false })).toBe(DELETED_USER_LABEL);
    expect(DELETED_USER_LABEL).toBe('Usuario eliminado');
  });
});

describe('killedLabel and statusChangeText', () => {
  it("say 'Sí' / 'No' and 'from → to'", () => {
    expect([killedLabel(true), killedLabel(false)]).toEqual(['Sí', 'No']);
    expect(statusChangeText('Activo', 'Descalificado')).toBe('Activo → Descalificado');
  });
});

describe("an agent's log texts", () => {
  it('says how long an agent was silent in seconds, minutes and hours', () => {
    expect(silenceText(45_900)).toBe('45 s');
    expect(silenceText(133_000)).toBe('2 min 13 s');
    expect(silenceText(3_900_000)).toBe('1 h 5 min');
  });

  it('names each event, with the last signal and the silence when known', () => {
    expect(agentEventText('sin_senal', '26/11/2026 10:32:05', null)).toBe(
      'Agente sin señal (última señal 26/11/2026 10:32:05)',
    );
    expect(agentEventText('sin_senal', null, null)).toBe('Agente sin señal');
    expect(agentEventText('detenido', '26/11/2026 10:32:05', null)).toBe('Agente detenido');
    expect(agentEventText('en_linea', null, 133_000)).toBe(
      'Agente de nuevo en línea tras 2 min 13 s sin señal',
    );
    // Presence per machine: the machine's host name.
    expect(agentEventText('sin_senal', '26/11/2026 10:32:05', null, 'lab-07')).toBe(
      'Agente sin señal en lab-07 (última señal 26/11/2026 10:32:05)',
    );
    expect(agentEventText('detenido', null, null, 'lab-07')).toBe('Agente detenido en lab-07');
    expect(agentEventText('en_linea', null, 45_000, 'lab-07')).toBe(
      'Agente de nuevo en línea en lab-07 tras 45 s sin señal',
    );
  });

  it('calls a stop not resumed within the window an alarm, and a return after a stop not a silence', () => {
    expect(agentEventText('sin_reanudar', '26/11/2026 10:32:05', null, 'lab-07')).toBe(
      'Agente detenido sin reanudar en lab-07 (última señal 26/11/2026 10:32:05)',
    );
    expect(agentEventText('sin_reanudar', null, null)).toBe('Agente detenido sin reanudar');
    expect(agentEventText('reanudado', null, 60_000, 'lab-07')).toBe(
      'Agente de nuevo en línea en lab-07 tras 1 min 0 s detenido',
    );
    expect(agentEventText('reanudado', null, null)).toBe('Agente de nuevo en línea');
  });
});

describe('contestLogQuerySchema', () => {
  it('reads the ids of a query string and drops an empty process', () => {
    expect(contestLogQuerySchema.parse({ levels_id: '2', teams_id: '15', process: ' chrome.exe ' })).toEqual({
      levels_id: 2,
      teams_id: 15,
      process: 'chrome.exe',
    });
    expect(contestLogQuerySchema.parse({ process: '' })).toEqual({});
    expect(contestLogQuerySchema.parse({})).toEqual({});
  });

  it('refuses ids that are not positive integers', () => {
    for (const levels_id of ['abc', '0', '1.5', '-3', ''])
      expect(contestLogQuerySchema.safeParse({ levels_id }).success, levels_id).toBe(false);
  });
});
