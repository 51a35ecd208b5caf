import { describe, expect, it } from 'vitest';
import { messageTargetOf, messageTargetOptions } from './message-targets';

describe("a message's 'Para'", () => {
  it('offers every team, each level, then each team by name', () => {
    expect(
      messageTargetOptions([
        { id: 12, name: 'Zeta' },
        { id: 3, name: 'Alfa' },
      ]),
    ).toEqual([
      { value: 'todos', label: 'Todos los equipos' },
      { value: 'nivel:1', label: 'Nivel Básico' },
      { value: 'nivel:2', label: 'Nivel Intermedio' },
      { value: 'nivel:3', label: 'Nivel Avanzado' },
      { value: 'equipo:3', label: 'Equipo Alfa' },
      { value: 'equipo:12', label: 'Equipo Zeta' },
    ]);
  });

  it('reads a choice as the call names it, and nothing chosen as null', () => {
    expect(messageTargetOf('todos')).toEqual({ target: 'todos' });
    expect(messageTargetOf('nivel:2')).toEqual({ target: 'nivel', id: 2 });
    expect(messageTargetOf('equipo:12')).toEqual({ target: 'equipo', id: 12 });
    expect(messageTargetOf('')).toBeNull();
    expect(messageTargetOf('equipo:x')).toBeNull();
  });
});
