import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../api-error';
import type { BoardTeam, TeamRow } from '@concurso/shared';
import {
  ListWarning,
  describeListError,
  listCatalogsOf,
  patchTeamRows,
  staleCatalogs,
} from './catalog-state';

describe('staleCatalogs', () => {
  it('refreshes the lists that embed the changed catalogue’s names', () => {
    expect(staleCatalogs('schools')).toEqual(['schools', 'departaments']);
    expect(staleCatalogs('departaments')).toEqual(['departaments', 'careers']);
    expect(staleCatalogs('processes')).toEqual(['processes', 'contest_processes']);
    expect(staleCatalogs('coaches')).toEqual(['coaches', 'teams']);
    expect(staleCatalogs('levels')).toEqual(['levels', 'teams', 'exercises']);
    expect(staleCatalogs('careers')).toEqual(['careers', 'members']);
    expect(staleCatalogs('users')).toEqual(['users']);
  });

  it('knows which lists each catalogue feeds (users feeds the three user screens)', () => {
    expect(listCatalogsOf('careers')).toEqual(['careers']);
    expect(listCatalogsOf('teams')).toEqual(['teams']);
    expect(listCatalogsOf('exercises')).toEqual(['exercises']);
    expect(listCatalogsOf('users')).toEqual(['adminUsers', 'judgeUsers', 'participantUsers']);
    expect(listCatalogsOf('contest_processes')).toEqual([]);
    expect(listCatalogsOf('members')).toEqual([]);
  });
});

describe('patchTeamRows', () => {
  const team = (id: number, statusId: number): TeamRow => ({
    id,
    name: `Equipo ${id}`,
    levels_id: 1,
    coaches_id: 1,
    contests_id: 1,
    number_attempts: 0,
    status_team: { id: statusId, status: statusId === 1 ? 'Activo' : 'Descalificado' },
    coach: { id: 1, name: 'Coach' },
    level: { id: 1, level: 'Básico' },
    contest: { id: 1, calendar: '2026B' },
    has_agent_key: false,
  });
  const board = (id: number, statusId: number, attempts = 0): BoardTeam => ({
    id,
    name: `Equipo ${id}`,
    levels_id: 1,
    number_attempts: attempts,
    status_team: { id: statusId, status: statusId === 1 ? 'Activo' : 'Descalificado' },
    agent_online: false,
    version: 2,
  });

  it('shows a judge’s block in ESTATUS', () => {
    const rows = [team(1, 1), team(2, 1)];
    const next = patchTeamRows(rows, board(2, 2));
    expect(next).not.toBe(rows);
    expect(next[1]?.status_team).toEqual({ id: 2, status: 'Descalificado' });
    expect(next[0]).toBe(rows[0]);
  });

  it('keeps the same array for an attempt or an unknown team, so the table does not re-render', () => {
    const rows = [team(1, 1)];
    expect(patchTeamRows(rows, board(1, 1, 5))).toBe(rows);
    expect(patchTeamRows(rows, board(9, 2))).toBe(rows);
  });
});

describe('describeListError (SPEC.md section 8)', () => {
  it('shows a success-false answer as Advertencia with the server message', () => {
    expect(describeListError(new ListWarning('No hay concursos'))).toEqual({
      title: 'Advertencia',
      message: 'No hay concursos',
    });
  });

  it('shows an HTTP error as Error with the server message, or the generic text', () => {
    expect(
      describeListError(new ApiRequestError({ kind: 'http', status: 403, serverMessage: 'Sin permiso' })),
    ).toEqual({ title: 'Error', message: 'Sin permiso' });
    expect(describeListError(new ApiRequestError({ kind: 'http', status: 502 }))).toEqual({
      title: 'Error',
      message: 'Algo salió mal en el servidor.',
    });
  });

  it('shows no answer as Error de Conexión', () => {
    expect(describeListError(new ApiRequestError({ kind: 'network', status: 0 }))).toEqual({
      title: 'Error de Conexión',
      message: 'No se pudo conectar al servidor. Inténtalo de nuevo más tarde.',
    });
  });
});
