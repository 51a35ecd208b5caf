/**
 * The built catalogue screens by route path, each loaded on demand (React.lazy) so the login and board
 * bundles do not carry the tables, forms and schemas. Every catalogue route of `CATALOGUE_ROUTES` has one.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { CatalogueSceneProps } from '../catalog-screen/catalogue-scene-props';

type LazyScene = LazyExoticComponent<ComponentType<CatalogueSceneProps>>;

export const CATALOGUE_SCENES: Readonly<Record<string, LazyScene>> = {
  '/contests': lazy(() =>
    import('../features/contests/contests-scene').then((m) => ({ default: m.ContestsScene })),
  ),
  '/exercises': lazy(() =>
    import('../features/exercises/exercises-scene').then((m) => ({ default: m.ExercisesScene })),
  ),
  '/levels': lazy(() => import('../features/levels/levels-scene').then((m) => ({ default: m.LevelsScene }))),
  '/schools': lazy(() =>
    import('../features/schools/schools-scene').then((m) => ({ default: m.SchoolsScene })),
  ),
  '/departaments': lazy(() =>
    import('../features/departaments/departaments-scene').then((m) => ({ default: m.DepartamentsScene })),
  ),
  '/careers': lazy(() =>
    import('../features/careers/careers-scene').then((m) => ({ default: m.CareersScene })),
  ),
  '/coaches': lazy(() =>
    import('../features/coaches/coaches-scene').then((m) => ({ default: m.CoachesScene })),
  ),
  '/teams': lazy(() => import('../features/teams/teams-scene').then((m) => ({ default: m.TeamsScene }))),
  '/process': lazy(() =>
    import('../features/processes/processes-scene').then((m) => ({ default: m.ProcessesScene })),
  ),
  // The three user screens share one module (one scene, three user types).
  '/usersAdmin': lazy(() =>
    import('../features/users/users-scene').then((m) => ({ default: m.AdminUsersScene })),
  ),
  '/usersJuez': lazy(() =>
    import('../features/users/users-scene').then((m) => ({ default: m.JudgeUsersScene })),
  ),
  '/usersParticipants': lazy(() =>
    import('../features/users/users-scene').then((m) => ({ default: m.ParticipantUsersScene })),
  ),
};
