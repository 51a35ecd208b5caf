import { describe, expect, it } from 'vitest';
import { ROUTE_PATHS } from './route-paths';
import { ROUTES } from './route-table';

describe('route paths', () => {
  it('lists every route of the route table, in its order, with who may open it', () => {
    // A route added to route-table.ts must be added to route-paths.ts too: the responsive journey
    // (e2e/responsive.test.ts) walks this list, so every screen is drawn on a phone and checked by axe.
    expect(ROUTE_PATHS).toEqual(ROUTES.map(({ path, access }) => ({ path, access })));
  });
});
