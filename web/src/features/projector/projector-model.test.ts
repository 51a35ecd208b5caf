import { describe, expect, it } from 'vitest';
import type { BoardTeam } from '@concurso/shared';
import { projectorColumns, projectorLevels, projectorTitle } from './projector-model';

const team = (
  id: number,
  name: string,
  levels_id: number,
  number_attempts: number,
  status = 1,
): BoardTeam => ({
  id,
  name,
  levels_id,
  number_attempts,
  status_team: { id: status, status: status === 1 ? 'Activo' : 'Descalificado' },
  agent_online: true,
  version: 1,
});

describe('projector model', () => {
  it('titles the active contest, and says when none is active (issue 13)', () => {
    expect(projectorTitle({ calendar: '2027A' })).toBe('Concurso 2027A');
    expect(projectorTitle(null)).toBe('Sin concurso activo');
  });

  it('shows one level for ?nivel=<board level id>, all three otherwise', () => {
    expect(projectorLevels('2')).toEqual(['intermedio']);
    expect(projectorLevels(null)).toEqual(['basico', 'intermedio', 'avanzado']);
    expect(projectorLevels('7')).toEqual(['basico', 'intermedio', 'avanzado']);
    expect(projectorLevels('abc')).toEqual(['basico', 'intermedio', 'avanzado']);
  });

  it('sorts each level by attempts, most first, ties by name, and scales bars to the largest', () => {
    const teams = {
      1: team(1, 'Zeta', 1, 2),
      2: team(2, 'Árbol', 1, 2),
      3: team(3, 'Bit', 1, 9, 2),
      4: team(4, 'Solo', 3, 0),
    };
    const [basico, intermedio, avanzado] = projectorColumns(teams, ['basico', 'intermedio', 'avanzado']);
    expect(basico!.teams.map((t) => t.name)).toEqual(['Bit', 'Árbol', 'Zeta']);
    expect(basico!.maxAttempts).toBe(9);
    expect(basico!.title).toBe('Nivel Básico');
    expect(intermedio!.teams).toEqual([]);
    expect(intermedio!.maxAttempts).toBe(1);
    expect(avanzado!.teams.map((t) => t.id)).toEqual([4]);
  });

  it('only builds the requested levels', () => {
    const columns = projectorColumns({ 1: team(1, 'A', 1, 1), 2: team(2, 'B', 2, 1) }, ['intermedio']);
    expect(columns.map((c) => c.teams.map((t) => t.name))).toEqual([['B']]);
  });
});
