import { Suspense } from 'react';
import { Container, Flex } from '@chakra-ui/react';
import { Outlet } from 'react-router-dom';
import { AppFooter } from '../ui/layout/app-footer';
import { AppHeader } from './app-header';
import { FullPageSpinner } from '../ui/layout/full-page-spinner';
import { WelcomeBanner } from './welcome-banner';

/** The shared layout of every route except / : header, welcome banner, the screen, footer. */
export function AppLayout() {
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
