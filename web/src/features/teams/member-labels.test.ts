import { describe, expect, it } from 'vitest';
import { careerOptionLabel, memberCareerName } from './member-labels';

describe('member labels', () => {
  it('names a career with its departament', () => {
    expect(careerOptionLabel({ name: 'Informática', departament: { id: 2, name: 'Ciencias' } })).toBe(
      'Informática (Ciencias)',
    );
  });

  it("shows a member's career, or 'Sin carrera' (docs/spec.md section 2)", () => {
    expect(memberCareerName({ career: { id: 1, name: 'Computación' } })).toBe('Computación');
    expect(memberCareerName({ career: null })).toBe('Sin carrera');
  });
});
