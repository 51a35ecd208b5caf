/**
 * The browser tab's title of each screen (WCAG 2.4.2: a screen reader
 * announces it and a person with many tabs tells them apart): the route's title, or for the routes
 * without one (login, the homes, the projector) its `tabName` in the route table, then the product's name.
 */

/** The product's name: `index.html`'s title, the header's brand and the end of every screen's title. */
export const APP_NAME = 'Concurso de Programación';

/** The tab title of a route: 'Información de los equipos · Concurso de Programación'. */
export function documentTitle(route: { title?: string; tabName?: string }): string {
  const name = route.title ?? route.tabName;
  return name ? `${name} · ${APP_NAME}` : APP_NAME;
}
