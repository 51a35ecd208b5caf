import { describe, expect, it } from 'vitest';
import { LIST_CATALOGS, catalogPaths } from './catalog-api';

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
      '/api/getLevels',
      '/api/getSchools',
      '/api/getDepartaments',
      '/api/getCareers',
      '/api/getCoaches',
      '/api/getProcesses',
    ]);
  });
});
