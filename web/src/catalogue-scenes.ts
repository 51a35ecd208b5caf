/**
 * The built catalogue screens by route path, each loaded on demand (React.lazy) so the login and board
 * bundles do not carry the tables, forms and schemas. Every catalogue route of `CATALOGUE_ROUTES` has one.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { CatalogueSceneProps } from './scenes/catalogue-scene-props';

type LazyScene = LazyExoticComponent<ComponentType<CatalogueSceneProps>>;

export const CATALOGUE_SCENES: Readonly<Record<string, LazyScene>> = {
  '/contests': lazy(() => import('./scenes/contests-scene').then((m) => ({ default: m.ContestsScene }))),
  '/exercises': lazy(() => import('./scenes/exercises-scene').then((m) => ({ default: m.ExercisesScene }))),
  '/levels': lazy(() => import('./scenes/levels-scene').then((m) => ({ default: m.LevelsScene }))),
  '/schools': lazy(() => import('./scenes/schools-scene').then((m) => ({ default: m.SchoolsScene }))),
  '/departaments': lazy(() =>
    import('./scenes/departaments-scene').then((m) => ({ default: m.DepartamentsScene })),
  ),
  '/careers': lazy(() => import('./scenes/careers-scene').then((m) => ({ default: m.CareersScene }))),
  '/coaches': lazy(() => import('./scenes/coaches-scene').then((m) => ({ default: m.CoachesScene }))),
  '/teams': lazy(() => import('./scenes/teams-scene').then((m) => ({ default: m.TeamsScene }))),
  '/process': lazy(() => import('./scenes/processes-scene').then((m) => ({ default: m.ProcessesScene }))),
  // The three user screens share one module (one scene, three user types).
  '/usersAdmin': lazy(() => import('./scenes/users-scene').then((m) => ({ default: m.AdminUsersScene }))),
  '/usersJuez': lazy(() => import('./scenes/users-scene').then((m) => ({ default: m.JudgeUsersScene }))),
  '/usersParticipants': lazy(() =>
    import('./scenes/users-scene').then((m) => ({ default: m.ParticipantUsersScene })),
  ),
};
