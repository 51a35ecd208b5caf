import { describe, expect, it } from 'vitest';
import { routePath } from '@concurso/shared';
import { CATALOG_ROUTES, LIST_SOURCES, USER_LISTS, type ListCatalog } from './catalog-api';

describe('catalogue routes', () => {
  it('list every screen in menu order with its docs/spec.md section 7 call, spelling included', () => {
    const lists = Object.keys(CATALOG_ROUTES) as ListCatalog[];
    expect(lists.map((name) => CATALOG_ROUTES[name].list.path)).toEqual([
      '/api/getContests',
      '/api/getExercises',
      '/api/getLevels',
      '/api/getSchools',
      '/api/getDepartaments',
      '/api/getCareers',
      '/api/getCoaches',
      '/api/getTeams',
      '/api/getProcesses',
      '/api/getUsersAdmin',
      '/api/getUsersJuecez',
      '/api/getUsersParticipants',
    ]);
  });

  it('give each catalogue its create, update and delete calls', () => {
    expect(CATALOG_ROUTES.departaments.create.path).toBe('/api/createDepartament');
    expect(CATALOG_ROUTES.processes.update.path).toBe('/api/updateProcess');
    expect(routePath(CATALOG_ROUTES.teams.remove, { id: 3 })).toBe('/api/deleteTeam/3');
    expect(routePath(CATALOG_ROUTES.exercises.remove, { id: 8 })).toBe('/api/deleteExercise/8');
    for (const list of ['adminUsers', 'judgeUsers', 'participantUsers'] as const) {
      expect(CATALOG_ROUTES[list]).toMatchObject({
        create: { method: 'POST', path: '/api/createUser' },
        update: { method: 'POST', path: '/api/updateUser' },
      });
      expect(routePath(CATALOG_ROUTES[list].remove, { id: 5 })).toBe('/api/deleteUser/5');
    }
    expect(USER_LISTS).toEqual({ 1: 'adminUsers', 2: 'judgeUsers', 3: 'participantUsers' });
    expect(LIST_SOURCES.judgeUsers).toBe('users');
  });
});
