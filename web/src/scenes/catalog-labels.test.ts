import { describe, expect, it } from 'vitest';
import {
  DEPARTAMENT_TYPE_OPTIONS,
  careerOptionLabel,
  departamentOptionLabel,
  departamentTypeLabel,
  levelOptions,
  memberCareerName,
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

  it('names a career with its departament and keeps the levels in their own order', () => {
    expect(careerOptionLabel({ name: 'Informática', departament: { id: 2, name: 'Ciencias' } })).toBe(
      'Informática (Ciencias)',
    );
    expect(
      levelOptions([
        { id: 3, level: 'Avanzado' },
        { id: 1, level: 'Básico' },
        { id: 2, level: 'Intermedio' },
      ]).map((option) => option.label),
    ).toEqual(['Básico', 'Intermedio', 'Avanzado']);
  });

  it("shows a member's career, or 'Sin carrera' (SPEC.md section 2)", () => {
    expect(memberCareerName({ career: { id: 1, name: 'Computación' } })).toBe('Computación');
    expect(memberCareerName({ career: null })).toBe('Sin carrera');
  });
});
