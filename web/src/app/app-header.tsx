import { Box, Button, Flex, HStack, Link, Spacer } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { ADMIN_HOME_PATH, JUDGE_HOME_PATH, isJudge } from './paths';
import { useLogout } from '../features/auth/use-logout';
import { useSessionStore } from '../stores/session-store';
import { CompactNavMenu } from './compact-nav-menu';
import { APP_NAME } from './document-title';
import { headerEntries } from './header-links';
import { HEADER_BUTTON_STYLE } from './header-style';
import { NavMenu } from './nav-menu';

/** Below Chakra's `md` breakpoint (768 px) the header is the brand and one 'Menú'. */
const WIDE = { base: 'none', md: 'flex' } as const;
const NARROW = { base: 'flex', md: 'none' } as const;

/**
 * The header of every screen but login (docs/spec.md section 2, "Shared layout"): brand link, the
 * catalogue menus (administrators only, docs/design.md section 5), 'Bitácora' (judges too) and
 * 'Cerrar Sesión'. Below 768 px the menus and 'Cerrar Sesión' fold into one 'Menú' (the
 * wrapped header took 40 % of a phone's screen); the hidden variant is `display: none`, out of the
 * tab order and of the accessibility tree.
 */
export function AppHeader() {
  const user = useSessionStore((state) => state.user);
  const logout = useLogout();
  const judge = isJudge(user?.types_users_id);
  const entries = headerEntries(judge);

  return (
    <Box as="header" bg="blue.800" color="white" px={{ base: '4', md: '8' }} py="2" boxShadow="sm">
      <Flex align="center" gap={{ base: '2', md: '4' }} wrap={{ base: 'nowrap', md: 'wrap' }}>
        <Link
          asChild
          color="white"
          fontWeight="bold"
          fontSize={{ base: 'md', md: 'lg' }}
          focusRingColor="white"
          _hover={{ textDecoration: 'none' }}
        >
          <RouterLink to={judge ? JUDGE_HOME_PATH : ADMIN_HOME_PATH}>{APP_NAME}</RouterLink>
        </Link>
        <HStack as="nav" aria-label="Menú principal" gap="1" wrap="wrap" display={WIDE}>
          {entries.map(({ group, routes }) => {
            const [single] = routes;
            // 'Procesos' and 'Bitácora' are single links (docs/spec.md section 2), the others are dropdowns.
            return routes.length === 1 && single ? (
              <Button key={group} asChild variant="ghost" {...HEADER_BUTTON_STYLE}>
                <RouterLink to={single.path}>{single.label}</RouterLink>
              </Button>
            ) : (
              <NavMenu key={group} label={group} routes={routes} />
            );
          })}
        </HStack>
        <Spacer />
        <Button
          variant="outline"
          borderColor="whiteAlpha.700"
          {...HEADER_BUTTON_STYLE}
          display={WIDE}
          onClick={() => void logout()}
        >
          Cerrar Sesión
        </Button>
        <Box as="nav" aria-label="Menú principal" display={NARROW} flexShrink={0}>
          <CompactNavMenu entries={entries} onLogout={() => void logout()} />
        </Box>
      </Flex>
    </Box>
  );
}
