import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.js';
import {
  DELETED_USER_LABEL,
  contestLogQuerySchema,
  killedLabel,
  statusChangeAuthor,
  statusChangeText,
} from './logs.js';

describe('statusChangeAuthor (issue 13: who blocked a team)', () => {
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
