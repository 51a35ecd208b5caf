import { describe, expect, it } from 'vitest';
import { headerEntries } from './header-links';
import { MENU_GROUPS, menuRoutes } from './route-table';

describe('header entries', () => {
  it('gives an administrator every menu group with its links, in menu order', () => {
    const entries = headerEntries(false);
    expect(entries.map((entry) => entry.group)).toEqual(MENU_GROUPS);
    for (const entry of entries) expect(entry.routes).toEqual(menuRoutes(entry.group));
  });

  it('gives a judge only the groups holding a link a judge may open, and only those links', () => {
    const entries = headerEntries(true);
    const paths = entries.flatMap((entry) => entry.routes.map((route) => route.path));
    expect(paths).toContain('/bitacora');
    expect(paths).not.toContain('/teams');
    for (const entry of entries) {
      expect(entry.routes.length).toBeGreaterThan(0);
      for (const route of entry.routes) expect(route.access).not.toBe('admin');
    }
  });
});
