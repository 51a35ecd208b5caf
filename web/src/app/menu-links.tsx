import { Menu } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import type { MenuRoute } from './route-table';

/**
 * A header menu's routes as menu items that are router links (`nav-menu.tsx`, and indented under
 * their group in the narrow header's `compact-nav-menu.tsx`); each item's value is its path.
 */
export function MenuLinks({ routes, indent = false }: { routes: readonly MenuRoute[]; indent?: boolean }) {
  return (
    <>
      {routes.map((route) => (
        <Menu.Item key={route.path} value={route.path} asChild ps={indent ? '5' : undefined}>
          <RouterLink to={route.path}>{route.label}</RouterLink>
        </Menu.Item>
      ))}
    </>
  );
}
