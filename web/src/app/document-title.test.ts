import { describe, expect, it } from 'vitest';
import { APP_NAME, documentTitle } from './document-title';
import { ROUTES } from './route-table';

describe('document title', () => {
  it("names a route by its title, then the product's name", () => {
    expect(documentTitle({ title: 'Información de los equipos' })).toBe(
      'Información de los equipos · Concurso de Programación',
    );
    expect(documentTitle({ tabName: 'Iniciar Sesión' })).toBe('Iniciar Sesión · Concurso de Programación');
    expect(documentTitle({})).toBe(APP_NAME);
  });

  it('gives every route of the table a title of its own', () => {
    // The responsive journey waits for the tab's title to change to know a new screen is drawn.
    const titles = ROUTES.map(documentTitle);
    expect(titles[0]).toBe('Iniciar Sesión · Concurso de Programación');
    for (const title of titles) expect(title).not.toBe(APP_NAME);
    expect(new Set(titles).size).toBe(ROUTES.length);
  });
});
