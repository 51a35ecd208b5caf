import { describe, expect, it } from 'vitest';
import { staleCatalogs } from './stale-catalogs';

describe('staleCatalogs', () => {
  it('refreshes the lists that embed the changed catalogue’s names', () => {
    expect(staleCatalogs('schools')).toEqual(['schools', 'departaments']);
    expect(staleCatalogs('departaments')).toEqual(['departaments', 'careers']);
    expect(staleCatalogs('processes')).toEqual(['processes', 'contest_processes']);
    expect(staleCatalogs('coaches')).toEqual(['coaches', 'teams']);
    expect(staleCatalogs('levels')).toEqual(['levels', 'teams', 'exercises']);
    // A message's receipts and a contest's allowed sites are rows of /bitacora.
    expect(staleCatalogs('messages')).toEqual(['messages', 'contestLog']);
    expect(staleCatalogs('contests')).toEqual([
      'contests',
      'contest_processes',
      'teams',
      'exercises',
      'contestLog',
    ]);
    expect(staleCatalogs('careers')).toEqual(['careers', 'members']);
    expect(staleCatalogs('users')).toEqual(['users']);
  });
});
