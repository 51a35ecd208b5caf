import { useEffect } from 'react';
import { documentTitle } from './document-title';
import type { AppRoute } from './route-table';

/**
 * One route's screen with its title given to the browser tab (`documentTitle`). The title is set once
 * the screen is drawn (an effect runs after the commit), so it changes together with the screen,
 * after the lazy load React Router's transition waits for.
 */
export function RouteScreen({ route }: { route: AppRoute }) {
  const { scene: Scene, title = '' } = route;
  const tabTitle = documentTitle(route);
  useEffect(() => {
    document.title = tabTitle;
  }, [tabTitle]);
  return <Scene title={title} />;
}
