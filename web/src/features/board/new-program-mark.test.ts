import { describe, expect, it } from 'vitest';
import { NEW_PROGRAM_RECENT_MS } from '@concurso/shared';
import { newProgramMark } from './new-program-mark';

describe('the board’s «programa nuevo» mark', () => {
  const at = Date.UTC(2026, 10, 27, 9, 0, 0);

  it('shows «Programa nuevo» with the program’s name in its title while its latest start is recent', () => {
    expect(newProgramMark({ new_program: { name: 'rara-tool', at } }, at + 60_000)).toEqual({
      label: 'Programa nuevo',
      title: 'Programa nuevo: rara-tool',
    });
  });

  it('shows nothing without a mark, or once the start is older than the recent window', () => {
    expect(newProgramMark({ new_program: null }, at)).toBeNull();
    expect(newProgramMark({}, at)).toBeNull();
    expect(newProgramMark({ new_program: { name: 'rara-tool', at } }, at + NEW_PROGRAM_RECENT_MS)).toBeNull();
  });
});
