import { describe, expect, it } from 'vitest';
import { staleCatalogs } from './stale-catalogs';

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
});
