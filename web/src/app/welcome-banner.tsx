import { Box, Container, Heading, Text, chakra } from '@chakra-ui/react';
import { USER_TYPE_NAMES, type UserTypeId } from '@concurso/shared';
import { useSessionStore } from '../stores/session-store';

/**
 * The welcome banner under the header: who is signed in and what the product is for. Below 768 px it
 * keeps only who is signed in (header and banner took 40 % of a phone's screen).
 */
export function WelcomeBanner() {
  const user = useSessionStore((state) => state.user);
  const role = user ? USER_TYPE_NAMES[user.types_users_id as UserTypeId] : undefined;

  return (
    <Box as="section" aria-label="Bienvenida" bg="blue.50" borderBottomWidth="1px" borderColor="blue.100">
      <Container maxW="8xl" py={{ base: '2', md: '4' }}>
        <Heading as="p" size={{ base: 'md', md: 'lg' }} color="blue.900" data-testid="welcome-title">
          Bienvenido, {user?.name ?? ''}
        </Heading>
        <Text color="fg.muted" fontSize={{ base: 'sm', md: 'md' }}>
          <chakra.span display={{ base: 'none', md: 'inline' }}>
            Software para la gestión de los procesos activos del concurso de programación.{' '}
          </chakra.span>
          {role ? `Sesión iniciada como ${role}.` : ''}
        </Text>
      </Container>
    </Box>
  );
}
