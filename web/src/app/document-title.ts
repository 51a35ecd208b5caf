/**
 * The browser tab's title of each screen (issue 14, "for every person": WCAG 2.4.2, a screen reader
 * announces it and a person with many tabs tells them apart): the route's title, or for the routes
 * without one (login, the homes, the projector) a name of its own, then the product's name.
 */
import { ADMIN_HOME_PATH, JUDGE_HOME_PATH, LOGIN_PATH, PROJECTOR_PATH } from './paths';

/** The product's name: `index.html`'s title and the end of every screen's. */
export const APP_NAME = 'Concurso de Programación';

/** Names of the screens whose route has no title (they draw their own heading, or none). */
const UNTITLED_SCREENS: Readonly<Record<string, string>> = {
  [LOGIN_PATH]: 'Iniciar Sesión',
  [ADMIN_HOME_PATH]: 'Inicio del administrador',
  [JUDGE_HOME_PATH]: 'Inicio del juez',
  [PROJECTOR_PATH]: 'Proyector',
};

/** The tab title of a route: 'Información de los equipos · Concurso de Programación'. */
export function documentTitle(route: { path: string; title?: string }): string {
  const name = route.title ?? UNTITLED_SCREENS[route.path];
  return name ? `${name} · ${APP_NAME}` : APP_NAME;
}
