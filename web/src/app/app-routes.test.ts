import { describe, expect, it } from 'vitest';
import { CATALOGUE_ROUTES, homePathFor, isAdminOnlyPath } from './app-routes';

describe('app routes', () => {
  it('routes type 1 to /home, type 2 to /homeJuez and any other type to /home', () => {
    expect(homePathFor(1)).toBe('/home');
    expect(homePathFor(2)).toBe('/homeJuez');
    expect(homePathFor(3)).toBe('/home');
  });

  it('lets judges open only the login and the judge home', () => {
    expect(isAdminOnlyPath('/homeJuez')).toBe(false);
    expect(isAdminOnlyPath('/')).toBe(false);
    expect(isAdminOnlyPath('/home')).toBe(true);
    for (const route of CATALOGUE_ROUTES) expect(isAdminOnlyPath(route.path)).toBe(true);
  });

  it('declares every catalogue route of the spec once', () => {
    expect(CATALOGUE_ROUTES.map((route) => route.path).sort()).toEqual(
      [
        '/contests',
        '/exercises',
        '/levels',
        '/schools',
        '/careers',
        '/departaments',
        '/teams',
        '/coaches',
        '/process',
        '/usersAdmin',
        '/usersJuez',
        '/usersParticipants',
      ].sort(),
    );
  });
});
