/**
 * Every client route in one table (docs/spec.md section 2, plus the projector, /bitacora and
 * /procesosObservados): the path and who may open it from `route-paths.ts` (written there once, as
 * plain data for the responsive journey), and here whether it is drawn inside the shared layout, its
 * header link and title, and its screen, loaded on demand (React.lazy) so each screen's tables, forms
 * and schemas stay out of the other screens' bundles. The router (`app.tsx`), the header's menus and
 * the route guard all read it.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { CatalogueSceneProps } from '../catalog-screen/catalogue-scene-props';
import * as paths from './paths';
import { ROUTE_PATHS, type AppPath, type RoutePath } from './route-paths';

/** Menus of the shared layout; `Procesos` and `Bitácora` are single links, not menus. */
export type MenuGroup = 'Concursos' | 'Equipos' | 'Procesos' | 'Bitácora' | 'Usuarios';

/**
 * A screen loaded on first visit. Every screen is given its route's title; only the catalogue screens
 * show it (the others have their own heading, or none).
 */
type LazyScene = LazyExoticComponent<ComponentType<CatalogueSceneProps>>;

/** What the table adds to a route's path and access (`route-paths.ts`). */
interface ScreenEntry {
  /** 'layout': inside the header, welcome banner and footer; 'bare': alone (login, the hall's kiosk). */
  frame: 'layout' | 'bare';
  scene: LazyScene;
  /** The header menu that links to it; none for the login, the homes and the projector. */
  menu?: MenuGroup;
  /** The link text in its menu. */
  label?: string;
  /** The page title (catalogue screens). */
  title?: string;
  /** The browser tab's name when the route has no title (`document-title.ts`). */
  tabName?: string;
}

/** One route of the app: its path and who may open it, and how it is drawn. */
export type AppRoute = RoutePath & ScreenEntry;

/** `React.lazy` of one named export of a screen module (the modules export named components). */
function lazyScene<K extends string>(
  load: () => Promise<Record<K, ComponentType<CatalogueSceneProps>>>,
  name: K,
): LazyScene {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

// The screens, each loaded on its first visit.
const LoginScene = lazyScene(() => import('../features/auth/login-scene'), 'LoginScene');
const HomeScene = lazyScene(() => import('../features/board/home-scene'), 'HomeScene');
const ProjectorScene = lazyScene(() => import('../features/projector/projector-scene'), 'ProjectorScene');
const ContestsScene = lazyScene(() => import('../features/contests/contests-scene'), 'ContestsScene');
const ExercisesScene = lazyScene(() => import('../features/exercises/exercises-scene'), 'ExercisesScene');
const LevelsScene = lazyScene(() => import('../features/levels/levels-scene'), 'LevelsScene');
const SchoolsScene = lazyScene(() => import('../features/schools/schools-scene'), 'SchoolsScene');
const DepartamentsScene = lazyScene(
  () => import('../features/departaments/departaments-scene'),
  'DepartamentsScene',
);
const CareersScene = lazyScene(() => import('../features/careers/careers-scene'), 'CareersScene');
const CoachesScene = lazyScene(() => import('../features/coaches/coaches-scene'), 'CoachesScene');
const TeamsScene = lazyScene(() => import('../features/teams/teams-scene'), 'TeamsScene');
const ProcessesScene = lazyScene(() => import('../features/processes/processes-scene'), 'ProcessesScene');
const LabScene = lazyScene(() => import('../features/lab/lab-scene'), 'LabScene');
const ContestLogScene = lazyScene(() => import('../features/history/contest-log-scene'), 'ContestLogScene');
const ObservedProcessesScene = lazyScene(
  () => import('../features/observed/observed-processes-scene'),
  'ObservedProcessesScene',
);
// The three user screens share one module (one scene, three user types).
const usersModule = () => import('../features/users/users-scene');
const AdminsScene = lazyScene(usersModule, 'AdminUsersScene');
const JudgesScene = lazyScene(usersModule, 'JudgeUsersScene');
const ParticipantsScene = lazyScene(usersModule, 'ParticipantUsersScene');

/** A screen of a header menu, in the shared layout: its menu, link text, page title and screen. */
function menuScreen(menu: MenuGroup, label: string, title: string, scene: LazyScene): ScreenEntry {
  return { frame: 'layout', menu, label, title, scene };
}

/** Each path's screen; typed by `AppPath`, so a path of `route-paths.ts` without a screen fails to compile. */
const SCREENS: Record<AppPath, ScreenEntry> = {
  [paths.LOGIN_PATH]: { frame: 'bare', scene: LoginScene, tabName: 'Iniciar Sesión' },
  [paths.ADMIN_HOME_PATH]: { frame: 'layout', scene: HomeScene, tabName: 'Inicio del administrador' },
  [paths.JUDGE_HOME_PATH]: { frame: 'layout', scene: HomeScene, tabName: 'Inicio del juez' },
  [paths.PROJECTOR_PATH]: { frame: 'bare', scene: ProjectorScene, tabName: 'Proyector' },
  '/contests': menuScreen('Concursos', 'Concursos', 'Información de los concursos', ContestsScene),
  '/exercises': menuScreen(
    'Concursos',
    'Ejercicios',
    'Información de los ejercicios por concurso',
    ExercisesScene,
  ),
  '/levels': menuScreen('Equipos', 'Niveles', 'Información de los niveles', LevelsScene),
  '/schools': menuScreen('Equipos', 'Escuelas', 'Información de las escuelas', SchoolsScene),
  '/departaments': menuScreen(
    'Equipos',
    'Departamentos',
    'Información de los departamentos',
    DepartamentsScene,
  ),
  '/careers': menuScreen('Equipos', 'Carreras', 'Información de las carreras', CareersScene),
  '/coaches': menuScreen('Equipos', 'Coaches', 'Información de los coaches', CoachesScene),
  '/teams': menuScreen('Equipos', 'Equipos', 'Información de los equipos', TeamsScene),
  '/process': menuScreen('Procesos', 'Procesos', 'Información de los procesos', ProcessesScene),
  // Judges too (access in route-paths.ts): they read what ran in the lab; only
  // administrators block from it.
  [paths.OBSERVED_PROCESSES_PATH]: menuScreen(
    'Procesos',
    'Procesos observados',
    'Información de los programas ejecutados en las máquinas',
    ObservedProcessesScene,
  ),
  // Judges too: the machines and which teams are ready, before and during the contest.
  [paths.LAB_PATH]: menuScreen(
    'Procesos',
    'Laboratorio',
    'Información de las máquinas del laboratorio',
    LabScene,
  ),
  // Judges too: the one menu link a judge sees.
  [paths.CONTEST_LOG_PATH]: menuScreen('Bitácora', 'Bitácora', 'Bitácora del concurso', ContestLogScene),
  '/usersAdmin': menuScreen(
    'Usuarios',
    'Administradores',
    'Información de los usuarios Administradores',
    AdminsScene,
  ),
  '/usersJuez': menuScreen('Usuarios', 'Jueces', 'Información de los usuarios Jueces', JudgesScene),
  '/usersParticipants': menuScreen(
    'Usuarios',
    'Participantes',
    'Información de los usuarios Participantes',
    ParticipantsScene,
  ),
};

/** The routes, in the order of `route-paths.ts` (the header's menu order, docs/spec.md section 2). */
export const ROUTES: readonly AppRoute[] = ROUTE_PATHS.map((route) => ({ ...route, ...SCREENS[route.path] }));

/** The menus of the header, in order. */
export const MENU_GROUPS: readonly MenuGroup[] = ['Concursos', 'Equipos', 'Procesos', 'Bitácora', 'Usuarios'];

/** A header link: a route that has a menu and a label. */
export type MenuRoute = AppRoute & { menu: MenuGroup; label: string };

/**
 * The links of one header menu, in table order; with `judge`, only those a judge may open (docs/design.md
 * section 5: a judge sees no administrators' menu, only `Bitácora`).
 */
export function menuRoutes(group: MenuGroup, judge = false): MenuRoute[] {
  return ROUTES.filter(
    (route): route is MenuRoute =>
      route.menu === group && route.label !== undefined && (!judge || route.access !== 'admin'),
  );
}

/**
 * True when a judge opening `path` must be sent to the judge home instead (docs/design.md section 5): the
 * administrators' routes, and any path not in the table.
 */
export function isAdminOnlyPath(path: string): boolean {
  const route = ROUTES.find((candidate) => candidate.path === path);
  return route ? route.access === 'admin' : true;
}
