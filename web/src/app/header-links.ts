import { MENU_GROUPS, menuRoutes, type MenuGroup, type MenuRoute } from './route-table';

/** One entry of the header: a menu group and the links of it the signed-in user may open. */
export interface HeaderEntry {
  group: MenuGroup;
  routes: MenuRoute[];
}

/**
 * The header's entries for a user, in menu order (docs/spec.md section 2, "Shared layout"): groups with no
 * link the user may open are left out (a judge sees only what a judge may open, docs/design.md section 5).
 * The wide header (a link per single-route group, a dropdown per other group) and the narrow header's
 * one menu (below 768 px) draw the same entries.
 */
export function headerEntries(judge: boolean): HeaderEntry[] {
  return MENU_GROUPS.map((group) => ({ group, routes: menuRoutes(group, judge) })).filter(
    (entry) => entry.routes.length > 0,
  );
}
