import { Box, Container, Text } from '@chakra-ui/react';

/** The footer of every screen but login. */
export function AppFooter() {
  return (
    <Box as="footer" borderTopWidth="1px" bg="gray.50" mt="auto">
      <Container maxW="8xl" py="4">
        <Text fontSize="sm" color="fg.muted" textAlign="center">
          Concurso Universitario de Programación · Administración en vivo · {new Date().getFullYear()}
        </Text>
      </Container>
    </Box>
  );
}
