/**
 * Every route's path and who may open it, as plain data: free of React and of the screens, so a browser
 * journey (e2e/responsive.test.ts: every route at a phone's and a laptop's width, axe-core
 * over each) walks the same list the router draws. The route table (`route-table.ts`) is built from
 * this list and must give each path a screen, so a route is added here, once, and the journey covers it.
 */
import {
  ADMIN_HOME_PATH,
  CONTEST_LOG_PATH,
  JUDGE_HOME_PATH,
  LAB_PATH,
  LOGIN_PATH,
  OBSERVED_PROCESSES_PATH,
  PROJECTOR_PATH,
} from './paths';

/**
 * Who may open a route. The client only steers (docs/design.md section 5: the server refuses every call a
 * role may not make): `anyone` without a session, `staff` judges and administrators, `admin`
 * administrators only (a judge is sent to /homeJuez).
 */
export type RouteAccess = 'anyone' | 'staff' | 'admin';

/** One route's path and who may open it. */
export interface RoutePath {
  path: string;
  access: RouteAccess;
}

/** The routes, in the order of the header's menus (docs/spec.md section 2, "Shared layout"). */
export const ROUTE_PATHS = [
  { path: LOGIN_PATH, access: 'anyone' },
  { path: ADMIN_HOME_PATH, access: 'admin' },
  { path: JUDGE_HOME_PATH, access: 'staff' },
  { path: PROJECTOR_PATH, access: 'staff' },
  { path: '/contests', access: 'admin' },
  { path: '/exercises', access: 'admin' },
  { path: '/levels', access: 'admin' },
  { path: '/schools', access: 'admin' },
  { path: '/departaments', access: 'admin' },
  { path: '/careers', access: 'admin' },
  { path: '/coaches', access: 'admin' },
  { path: '/teams', access: 'admin' },
  { path: '/process', access: 'admin' },
  { path: OBSERVED_PROCESSES_PATH, access: 'staff' },
  { path: LAB_PATH, access: 'staff' },
  { path: CONTEST_LOG_PATH, access: 'staff' },
  { path: '/usersAdmin', access: 'admin' },
  { path: '/usersJuez', access: 'admin' },
  { path: '/usersParticipants', access: 'admin' },
] as const satisfies readonly RoutePath[];

/** A path of `ROUTE_PATHS`: the route table needs a screen for each. */
export type AppPath = (typeof ROUTE_PATHS)[number]['path'];
