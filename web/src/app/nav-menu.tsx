import { Button, Menu, Portal } from '@chakra-ui/react';
import { HEADER_BUTTON_STYLE } from './header-style';
import { MenuLinks } from './menu-links';
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
        <Button variant="ghost" {...HEADER_BUTTON_STYLE}>
          {label} ▾
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="12rem">
            <MenuLinks routes={routes} />
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
