import { describe, expect, it } from 'vitest';
import { homePathFor, isJudge } from './paths';
import type { RouteAccess } from './route-paths';
import { MENU_GROUPS, ROUTES, isAdminOnlyPath, menuRoutes } from './route-table';

/**
 * docs/spec.md section 2, "Screens and routes", plus the projector and /bitacora, /procesosObservados
 * and /laboratorio; who may open
 * each (docs/design.md section 5).
 */
const SPEC_ROUTES: Record<string, RouteAccess> = {
  '/': 'anyone',
  '/home': 'admin',
  '/homeJuez': 'staff',
  '/contests': 'admin',
  '/exercises': 'admin',
  '/levels': 'admin',
  '/schools': 'admin',
  '/careers': 'admin',
  '/departaments': 'admin',
  '/teams': 'admin',
  '/coaches': 'admin',
  '/process': 'admin',
  '/usersAdmin': 'admin',
  '/usersJuez': 'admin',
  '/usersParticipants': 'admin',
  '/proyector': 'staff',
  '/bitacora': 'staff',
  '/procesosObservados': 'staff',
  '/laboratorio': 'staff',
};

describe('route table', () => {
  it('has every route of docs/spec.md section 2 once, with who may open it', () => {
    expect(ROUTES.map((route) => route.path).sort()).toEqual(Object.keys(SPEC_ROUTES).sort());
    for (const route of ROUTES)
      expect([route.path, route.access]).toEqual([route.path, SPEC_ROUTES[route.path]]);
  });

  it('loads every screen on demand', () => {
    const lazyType = Symbol.for('react.lazy');
    for (const route of ROUTES) {
      expect((route.scene as unknown as { $$typeof: symbol }).$$typeof, route.path).toBe(lazyType);
    }
  });

  it('draws the login and the projector alone, every other screen in the shared layout', () => {
    const bare = ROUTES.filter((route) => route.frame === 'bare').map((route) => route.path);
    expect(bare.sort()).toEqual(['/', '/proyector']);
  });

  it('gives the header the menus of docs/spec.md section 2 ("Shared layout"), with their titles', () => {
    const links = MENU_GROUPS.map((group) => [group, menuRoutes(group).map((route) => route.path)]);
    expect(links).toEqual([
      ['Concursos', ['/contests', '/exercises']],
      ['Equipos', ['/levels', '/schools', '/departaments', '/careers', '/coaches', '/teams']],
      ['Procesos', ['/process', '/procesosObservados', '/laboratorio']],
      ['Bitácora', ['/bitacora']],
      ['Usuarios', ['/usersAdmin', '/usersJuez', '/usersParticipants']],
    ]);
    expect(menuRoutes('Equipos').map((route) => [route.label, route.title])).toContainEqual([
      'Departamentos',
      'Información de los departamentos',
    ]);
    expect(menuRoutes('Usuarios').map((route) => route.label)).toEqual([
      'Administradores',
      'Jueces',
      'Participantes',
    ]);
    for (const group of MENU_GROUPS.filter((name) => name !== 'Bitácora')) {
      for (const route of menuRoutes(group)) expect(route.title, route.path).toMatch(/^Información de /);
    }
    expect(menuRoutes('Bitácora').map((route) => [route.label, route.title])).toEqual([
      ['Bitácora', 'Bitácora del concurso'],
    ]);
  });

  it("shows a judge only the menu links a judge may open: 'Procesos observados', 'Laboratorio' and 'Bitácora'", () => {
    const links = MENU_GROUPS.flatMap((group) => menuRoutes(group, true).map((route) => route.path));
    expect(links).toEqual(['/procesosObservados', '/laboratorio', '/bitacora']);
  });

  it('routes type 1 to /home, type 2 to /homeJuez and any other type to /home', () => {
    expect(homePathFor(1)).toBe('/home');
    expect(homePathFor(2)).toBe('/homeJuez');
    expect(homePathFor(3)).toBe('/home');
    expect(isJudge(2)).toBe(true);
    expect(isJudge(1)).toBe(false);
  });

  it('lets judges open only the login, the judge home, the projector, the contest log, what ran and the lab', () => {
    expect(isAdminOnlyPath('/homeJuez')).toBe(false);
    expect(isAdminOnlyPath('/procesosObservados')).toBe(false);
    expect(isAdminOnlyPath('/laboratorio')).toBe(false);
    expect(isAdminOnlyPath('/')).toBe(false);
    expect(isAdminOnlyPath('/proyector')).toBe(false);
    expect(isAdminOnlyPath('/bitacora')).toBe(false);
    expect(isAdminOnlyPath('/home')).toBe(true);
    expect(isAdminOnlyPath('/no-existe')).toBe(true);
    for (const group of MENU_GROUPS.filter((name) => name !== 'Bitácora')) {
      for (const route of menuRoutes(group)) {
        expect(isAdminOnlyPath(route.path)).toBe(
          !['/procesosObservados', '/laboratorio'].includes(route.path),
        );
      }
    }
  });
});
