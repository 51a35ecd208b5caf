import { Box, Container, Heading, Text } from '@chakra-ui/react';
import { USER_TYPE_NAMES, type UserTypeId } from '@concurso/shared';
import { useSessionStore } from '../stores/session-store';

/** The welcome banner under the header: who is signed in and what the product is for. */
export function WelcomeBanner() {
  const user = useSessionStore((state) => state.user);
  const role = user ? USER_TYPE_NAMES[user.types_users_id as UserTypeId] : undefined;

  return (
    <Box as="section" aria-label="Bienvenida" bg="blue.50" borderBottomWidth="1px" borderColor="blue.100">
      <Container maxW="8xl" py="4">
        <Heading as="p" size="lg" color="blue.900" data-testid="welcome-title">
          Bienvenido, {user?.name ?? ''}
        </Heading>
        <Text color="fg.muted">
          Software para la gestión de los procesos activos del concurso de programación.
          {role ? ` Sesión iniciada como ${role}.` : ''}
        </Text>
      </Container>
    </Box>
  );
}
