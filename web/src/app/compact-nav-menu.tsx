import { Button, Menu, Portal } from '@chakra-ui/react';
import type { HeaderEntry } from './header-links';
import { HEADER_BUTTON_STYLE } from './header-style';
import { MenuLinks } from './menu-links';

/** Props of {@link CompactNavMenu}. */
export interface CompactNavMenuProps {
  entries: readonly HeaderEntry[];
  onLogout: () => void;
}

/** The value of the menu's 'Cerrar Sesión' item (the links' values are their paths). */
const LOGOUT = 'logout';

/**
 * The header of a narrow screen (below 768 px) in one 'Menú' button: every link of the wide
 * header, grouped under the menu names that have several, then 'Cerrar Sesión'. A Chakra (Ark) menu:
 * Enter, Space or the arrows open it, the arrows move, Enter follows a link, Escape closes it.
 */
export function CompactNavMenu({ entries, onLogout }: CompactNavMenuProps) {
  return (
    <Menu.Root
      positioning={{ placement: 'bottom-end' }}
      onSelect={(details) => {
        if (details.value === LOGOUT) onLogout();
      }}
    >
      <Menu.Trigger asChild>
        <Button variant="outline" borderColor="whiteAlpha.700" {...HEADER_BUTTON_STYLE}>
          Menú ☰
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="14rem" maxH="80vh" overflowY="auto">
            {entries.map(({ group, routes }) =>
              routes.length === 1 ? (
                <MenuLinks key={group} routes={routes} />
              ) : (
                <Menu.ItemGroup key={group}>
                  <Menu.ItemGroupLabel>{group}</Menu.ItemGroupLabel>
                  <MenuLinks routes={routes} indent />
                </Menu.ItemGroup>
              ),
            )}
            <Menu.Separator />
            <Menu.Item value={LOGOUT}>Cerrar Sesión</Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
