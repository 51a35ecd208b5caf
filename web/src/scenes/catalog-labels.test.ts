import { describe, expect, it } from 'vitest';
import {
  DEPARTAMENT_TYPE_OPTIONS,
  departamentOptionLabel,
  departamentTypeLabel,
  toOptions,
} from './catalog-labels';

describe('catalogue labels', () => {
  it('shows TIPO as Interno for 0 and Externo otherwise', () => {
    expect(departamentTypeLabel(0)).toBe('Interno');
    expect(departamentTypeLabel(1)).toBe('Externo');
    expect(departamentTypeLabel(7)).toBe('Externo');
    expect(DEPARTAMENT_TYPE_OPTIONS.map((option) => option.label)).toEqual(['Interno', 'Externo']);
  });

  it('names a departament with its school and sorts options in Spanish order', () => {
    expect(departamentOptionLabel({ name: 'Computación', school: { id: 1, name: 'CUCEI' } })).toBe(
      'Computación (CUCEI)',
    );
    expect(
      toOptions(
        [
          { id: 2, name: 'Zoología' },
          { id: 1, name: 'Álgebra' },
        ],
        (row) => row.name,
      ),
    ).toEqual([
      { value: '1', label: 'Álgebra' },
      { value: '2', label: 'Zoología' },
    ]);
  });
});
