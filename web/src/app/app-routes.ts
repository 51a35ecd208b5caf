/**
 * The client routes of SPEC.md section 2, with their menu labels and titles, declared once for the
 * router, the layout's menus and the route guard.
 */
import { USER_TYPES } from '@concurso/shared';

export const LOGIN_PATH = '/';
export const ADMIN_HOME_PATH = '/home';
export const JUDGE_HOME_PATH = '/homeJuez';
/** The hall's projector view, for judges and admins (not in SPEC.md: the projector issue). */
export const PROJECTOR_PATH = '/proyector';

/** Menus of the shared layout; `Procesos` is a single link, not a menu. */
export type MenuGroup = 'Concursos' | 'Equipos' | 'Procesos' | 'Usuarios';

/** A catalogue screen: its path, its link text in the header and its page title. */
export interface CatalogueRoute {
  path: string;
  menu: MenuGroup;
  label: string;
  title: string;
}

/** Catalogue screens in menu order (SPEC.md section 2, "Shared layout"). */
export const CATALOGUE_ROUTES: readonly CatalogueRoute[] = [
  { path: '/contests', menu: 'Concursos', label: 'Concursos', title: 'Información de los concursos' },
  {
    path: '/exercises',
    menu: 'Concursos',
    label: 'Ejercicios',
    title: 'Información de los ejercicios por concurso',
  },
  { path: '/levels', menu: 'Equipos', label: 'Niveles', title: 'Información de los niveles' },
  { path: '/schools', menu: 'Equipos', label: 'Escuelas', title: 'Información de las escuelas' },
  {
    path: '/departaments',
    menu: 'Equipos',
    label: 'Departamentos',
    title: 'Información de los departamentos',
  },
  { path: '/careers', menu: 'Equipos', label: 'Carreras', title: 'Información de las carreras' },
  { path: '/coaches', menu: 'Equipos', label: 'Coaches', title: 'Información de los coaches' },
  { path: '/teams', menu: 'Equipos', label: 'Equipos', title: 'Información de los equipos' },
  { path: '/process', menu: 'Procesos', label: 'Procesos', title: 'Información de los procesos' },
  {
    path: '/usersAdmin',
    menu: 'Usuarios',
    label: 'Administradores',
    title: 'Información de los usuarios Administradores',
  },
  { path: '/usersJuez', menu: 'Usuarios', label: 'Jueces', title: 'Información de los usuarios Jueces' },
  {
    path: '/usersParticipants',
    menu: 'Usuarios',
    label: 'Participantes',
    title: 'Información de los usuarios Participantes',
  },
];

/** The menus of the header, in order. */
export const MENU_GROUPS: readonly MenuGroup[] = ['Concursos', 'Equipos', 'Procesos', 'Usuarios'];

/** Paths a judge may open; every other staff path is for administrators (DESIGN.md section 5). */
const JUDGE_PATHS: ReadonlySet<string> = new Set([LOGIN_PATH, JUDGE_HOME_PATH, PROJECTOR_PATH]);

/** True when a judge opening `path` must be sent to the judge home instead. */
export function isAdminOnlyPath(path: string): boolean {
  return !JUDGE_PATHS.has(path);
}

/** The home of a user type after login: judges go to /homeJuez, everyone else to /home. */
export function homePathFor(typesUsersId: number): string {
  return typesUsersId === USER_TYPES.judge ? JUDGE_HOME_PATH : ADMIN_HOME_PATH;
}

/** True for judges (types_users_id 2), who see no admin menus. */
export function isJudge(typesUsersId: number | undefined): boolean {
  return typesUsersId === USER_TYPES.judge;
}
