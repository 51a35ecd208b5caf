import { describe, expect, it } from 'vitest';
import { DEPARTAMENT_TYPE_OPTIONS, departamentTypeLabel } from './departament-type';

describe('departament type', () => {
  it('shows TIPO as Interno for 0 and Externo otherwise', () => {
    expect(departamentTypeLabel(0)).toBe('Interno');
    expect(departamentTypeLabel(1)).toBe('Externo');
    expect(departamentTypeLabel(7)).toBe('Externo');
    expect(DEPARTAMENT_TYPE_OPTIONS.map((option) => option.label)).toEqual(['Interno', 'Externo']);
  });
});
