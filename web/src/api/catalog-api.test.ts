import { describe, expect, it } from 'vitest';
import { LIST_CATALOGS, LIST_SOURCES, USER_LISTS, catalogPaths } from './catalog-api';

describe('catalogue paths', () => {
  it('match SPEC.md section 7 word for word', () => {
    expect(catalogPaths('contests')).toMatchObject({
      list: '/api/getContests',
      create: '/api/createContest',
      update: '/api/updateContest',
    });
    expect(catalogPaths('contests').remove(4)).toBe('/api/deleteContest/4');
    expect(catalogPaths('departaments').list).toBe('/api/getDepartaments');
    expect(catalogPaths('departaments').remove(2)).toBe('/api/deleteDepartament/2');
    expect(catalogPaths('coaches').list).toBe('/api/getCoaches');
    expect(catalogPaths('coaches').create).toBe('/api/createCoach');
    expect(catalogPaths('processes').list).toBe('/api/getProcesses');
    expect(catalogPaths('processes').update).toBe('/api/updateProcess');
    expect(catalogPaths('processes').remove(9)).toBe('/api/deleteProcess/9');
    expect(LIST_CATALOGS.map((name) => catalogPaths(name).list)).toEqual([
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

  it('gives teams, exercises and the three user lists their SPEC.md section 7 calls', () => {
    expect(catalogPaths('teams')).toMatchObject({ create: '/api/createTeam', update: '/api/updateTeam' });
    expect(catalogPaths('teams').remove(3)).toBe('/api/deleteTeam/3');
    expect(catalogPaths('exercises').remove(8)).toBe('/api/deleteExercise/8');
    for (const list of ['adminUsers', 'judgeUsers', 'participantUsers'] as const) {
      expect(catalogPaths(list)).toMatchObject({ create: '/api/createUser', update: '/api/updateUser' });
      expect(catalogPaths(list).remove(5)).toBe('/api/deleteUser/5');
    }
    expect(USER_LISTS).toEqual({ 1: 'adminUsers', 2: 'judgeUsers', 3: 'participantUsers' });
    expect(LIST_SOURCES.judgeUsers).toBe('users');
  });
});
