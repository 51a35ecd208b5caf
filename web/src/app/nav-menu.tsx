import { Button, Menu, Portal } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import type { MenuRoute } from './route-table';

/** Props of {@link NavMenu}. */
export interface NavMenuProps {
  label: string;
  routes: readonly MenuRoute[];
}

/** One header dropdown (Concursos, Equipos, Usuarios) whose items are router links. */
export function NavMenu({ label, routes }: NavMenuProps) {
  return (
    <Menu.Root positioning={{ placement: 'bottom-start' }}>
      <Menu.Trigger asChild>
        <Button
          variant="ghost"
          color="white"
          focusRingColor="white"
          _hover={{ bg: 'blue.700' }}
          _expanded={{ bg: 'blue.700' }}
        >
          {label} ▾
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="12rem">
            {routes.map((route) => (
              <Menu.Item key={route.path} value={route.path} asChild>
                <RouterLink to={route.path}>{route.label}</RouterLink>
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
