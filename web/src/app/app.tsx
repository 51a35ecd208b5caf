import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { FullPageSpinner } from '../ui/layout/full-page-spinner';
import { AppLayout } from './app-layout';
import { ADMIN_HOME_PATH } from './paths';
import { RouteGuard } from './route-guard';
import { ROUTES } from './route-table';

const bare = ROUTES.filter((route) => route.frame === 'bare');
const framed = ROUTES.filter((route) => route.frame === 'layout');

/**
 * The routes of `route-table.ts` behind the route guard: the login and the hall's kiosk view alone,
 * every other screen inside the shared layout (which shows a spinner while a screen loads); unknown
 * paths go to /home.
 */
export function App() {
  return (
    <RouteGuard>
      <Routes>
        {bare.map(({ path, title = '', scene: Scene }) => (
          <Route
            key={path}
            path={path}
            element={
              <Suspense fallback={<FullPageSpinner />}>
                <Scene title={title} />
              </Suspense>
            }
          />
        ))}
        <Route element={<AppLayout />}>
          {framed.map(({ path, title = '', scene: Scene }) => (
            <Route key={path} path={path} element={<Scene title={title} />} />
          ))}
        </Route>
        <Route path="*" element={<Navigate to={ADMIN_HOME_PATH} replace />} />
      </Routes>
    </RouteGuard>
  );
}
