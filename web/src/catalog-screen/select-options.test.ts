import { describe, expect, it } from 'vitest';
import { levelOptions, toOptions } from './select-options';

describe('select options', () => {
  it('sorts options in Spanish order, values as strings', () => {
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

  it('keeps the levels in their own order', () => {
    expect(
      levelOptions([
        { id: 3, level: 'Avanzado' },
        { id: 1, level: 'Básico' },
        { id: 2, level: 'Intermedio' },
      ]).map((option) => option.label),
    ).toEqual(['Básico', 'Intermedio', 'Avanzado']);
  });
});
