import { Box, Button, Flex, HStack, Link, Spacer } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { ADMIN_HOME_PATH, JUDGE_HOME_PATH, isJudge } from './paths';
import { MENU_GROUPS, menuRoutes } from './route-table';
import { useLogout } from '../features/auth/use-logout';
import { useSessionStore } from '../stores/session-store';
import { NavMenu } from './nav-menu';

/**
 * The header of every screen but login (SPEC.md section 2, "Shared layout"): brand link, the
 * catalogue menus (administrators only, DESIGN.md section 5), 'Bitácora' (judges too, issue 13) and
 * 'Cerrar Sesión'.
 */
export function AppHeader() {
  const user = useSessionStore((state) => state.user);
  const logout = useLogout();
  const judge = isJudge(user?.types_users_id);

  return (
    <Box as="header" bg="blue.800" color="white" px={{ base: '4', md: '8' }} py="2" boxShadow="sm">
      <Flex align="center" gap="4" wrap="wrap">
        <Link asChild color="white" fontWeight="bold" fontSize="lg" _hover={{ textDecoration: 'none' }}>
          <RouterLink to={judge ? JUDGE_HOME_PATH : ADMIN_HOME_PATH}>Concurso de Programación</RouterLink>
        </Link>
        <HStack as="nav" aria-label="Menú principal" gap="1" wrap="wrap">
          {MENU_GROUPS.map((group) => {
            // A judge sees only the links a judge may open ('Bitácora', issue 13).
            const routes = menuRoutes(group, judge);
            const [single] = routes;
            if (!single) return null;
            // 'Procesos' and 'Bitácora' are single links (SPEC.md section 2), the others are dropdowns.
            return routes.length === 1 ? (
              <Button key={group} asChild variant="ghost" color="white" _hover={{ bg: 'blue.700' }}>
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
          color="white"
          borderColor="whiteAlpha.700"
          _hover={{ bg: 'blue.700' }}
          onClick={() => void logout()}
        >
          Cerrar Sesión
        </Button>
      </Flex>
    </Box>
  );
}
