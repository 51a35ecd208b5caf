import { Heading, Stack } from '@chakra-ui/react';
import { LiveBoard } from './live-board';

/** /home and /homeJuez: 'Información de la competencia actual' and the live board. */
export function HomeScene() {
  return (
    <Stack gap="4">
      <Heading as="h1" size="2xl">
        Información de la competencia actual
      </Heading>
      <LiveBoard />
    </Stack>
  );
}
