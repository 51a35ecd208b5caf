import { describe, expect, it } from 'vitest';
import { normalizeForSearch } from './search-normalize';

describe('normalizeForSearch', () => {
  it('drops accents and case so "ingenieria" finds "Ingeniería"', () => {
    expect(normalizeForSearch('Ingeniería')).toBe('ingenieria');
    expect(normalizeForSearch('  MAESTRÍA ')).toBe('maestria');
    expect(normalizeForSearch('Pingüino Ñandú')).toBe('pinguino nandu');
    expect(normalizeForSearch('Ingeniería').includes(normalizeForSearch('INGENIERIA'))).toBe(true);
  });

  it('turns numbers into text and null or undefined into nothing', () => {
    expect(normalizeForSearch(2026)).toBe('2026');
    expect(normalizeForSearch(null)).toBe('');
    expect(normalizeForSearch(undefined)).toBe('');
  });

  it('keeps punctuation of executable names', () => {
    expect(normalizeForSearch('Discord.exe')).toBe('discord.exe');
  });
});
