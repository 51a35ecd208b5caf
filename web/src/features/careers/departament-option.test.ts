import { describe, expect, it } from 'vitest';
import { departamentOptionLabel } from './departament-option';

describe('departament option', () => {
  it('names a departament with its school', () => {
    expect(departamentOptionLabel({ name: 'Computación', school: { id: 1, name: 'CUCEI' } })).toBe(
      'Computación (CUCEI)',
    );
  });
});
