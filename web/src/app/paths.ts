/**
 * The fixed paths of the app and where a user lands after login (docs/spec.md section 2). Free of React and
 * of the screens, so features may import it: the route table (`route-table.ts`) imports the screens.
 */
import { USER_TYPES } from '@concurso/shared';

export const LOGIN_PATH = '/';
export const ADMIN_HOME_PATH = '/home';
export const JUDGE_HOME_PATH = '/homeJuez';
/** The hall's projector view, for judges and admins (not in docs/spec.md; docs/design.md section 1). */
export const PROJECTOR_PATH = '/proyector';
/** The active contest's log of attempts and status changes, for judges and admins. */
export const CONTEST_LOG_PATH = '/bitacora';
/** What ran on the teams' machines, for judges and admins (docs/design.md section 6). */
export const OBSERVED_PROCESSES_PATH = '/procesosObservados';
/** The lab board: the active contest's machines and which teams are ready, for judges and admins. */
export const LAB_PATH = '/laboratorio';

/** The home of a user type after login: judges go to /homeJuez, everyone else to /home. */
export function homePathFor(typesUsersId: number): string {
  return typesUsersId === USER_TYPES.judge ? JUDGE_HOME_PATH : ADMIN_HOME_PATH;
}

/** True for judges (types_users_id 2), who see no admin menus. */
export function isJudge(typesUsersId: number | undefined): boolean {
  return typesUsersId === USER_TYPES.judge;
}
