import { Suspense } from 'react';
import { Container, Flex } from '@chakra-ui/react';
import { Outlet } from 'react-router-dom';
import { useCatalogSync } from '../api/queries/use-catalog-sync';
import { AppFooter } from '../ui/layout/app-footer';
import { AppHeader } from './app-header';
import { FullPageSpinner } from '../ui/layout/full-page-spinner';
import { WelcomeBanner } from './welcome-banner';

/**
 * The shared layout of every route except / and /proyector: header, welcome banner, the screen, footer.
 * While it is mounted the server state follows the push channel (`useCatalogSync`).
 */
export function AppLayout() {
  useCatalogSync();
  return (
    <Flex direction="column" minH="100vh">
      <AppHeader />
      <WelcomeBanner />
      <Container as="main" maxW="8xl" flex="1" py="6">
        <Suspense fallback={<FullPageSpinner />}>
          <Outlet />
        </Suspense>
      </Container>
      <AppFooter />
    </Flex>
  );
}
