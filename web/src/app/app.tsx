import { Suspense, lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { ADMIN_HOME_PATH, CATALOGUE_ROUTES, JUDGE_HOME_PATH, LOGIN_PATH, PROJECTOR_PATH } from './app-routes';
import { CATALOGUE_SCENES } from './catalogue-scenes';
import { AppLayout } from './app-layout';
import { FullPageSpinner } from '../ui/layout/full-page-spinner';
import { RouteGuard } from './route-guard';
import { LoginScene } from '../features/auth/login-scene';

// Loaded on demand: the login screen should not carry the board's socket client.
const HomeScene = lazy(() => import('../features/board/home-scene').then((m) => ({ default: m.HomeScene })));
const ProjectorScene = lazy(() =>
  import('../features/projector/projector-scene').then((m) => ({ default: m.ProjectorScene })),
);

/** The routes of SPEC.md section 2 (plus the projector) behind the route guard; unknown paths go to /home. */
export function App() {
  return (
    <RouteGuard>
      <Routes>
        <Route path={LOGIN_PATH} element={<LoginScene />} />
        {/* The hall's kiosk view: no header or footer. */}
        <Route
          path={PROJECTOR_PATH}
          element={
            <Suspense fallback={<FullPageSpinner />}>
              <ProjectorScene />
            </Suspense>
          }
        />
        <Route element={<AppLayout />}>
          <Route path={ADMIN_HOME_PATH} element={<HomeScene />} />
          <Route path={JUDGE_HOME_PATH} element={<HomeScene />} />
          {CATALOGUE_ROUTES.map((route) => {
            const Scene = CATALOGUE_SCENES[route.path];
            // Every route has its scene (catalogue-scenes.test.ts); a missing one falls to /home.
            return Scene ? (
              <Route key={route.path} path={route.path} element={<Scene title={route.title} />} />
            ) : null;
          })}
        </Route>
        <Route path="*" element={<Navigate to={ADMIN_HOME_PATH} replace />} />
      </Routes>
    </RouteGuard>
  );
}
