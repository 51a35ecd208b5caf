import { Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { FullPageSpinner } from '../ui/layout/full-page-spinner';
import { AppLayout } from './app-layout';
import { ADMIN_HOME_PATH } from './paths';
import { RouteGuard } from './route-guard';
import { RouteScreen } from './route-screen';
import { ROUTES } from './route-table';

const bare = ROUTES.filter((route) => route.frame === 'bare');
const framed = ROUTES.filter((route) => route.frame === 'layout');

/**
 * The routes of `route-table.ts` behind the route guard: the login and the hall's kiosk view alone,
 * every other screen inside the shared layout (which shows a spinner while a screen loads), each
 * naming the browser tab (`RouteScreen`); unknown paths go to /home.
 */
export function App() {
  return (
    <RouteGuard>
      <Routes>
        {bare.map((route) => (
          <Route
            key={route.path}
            path={route.path}
            element={
              <Suspense fallback={<FullPageSpinner />}>
                <RouteScreen route={route} />
              </Suspense>
            }
          />
        ))}
        <Route element={<AppLayout />}>
          {framed.map((route) => (
            <Route key={route.path} path={route.path} element={<RouteScreen route={route} />} />
          ))}
        </Route>
        <Route path="*" element={<Navigate to={ADMIN_HOME_PATH} replace />} />
      </Routes>
    </RouteGuard>
  );
}
