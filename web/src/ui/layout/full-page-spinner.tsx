import { Center, Spinner } from '@chakra-ui/react';

/** Shown while the session is being checked or a lazy screen loads. */
export function FullPageSpinner({ label = 'Cargando…' }: { label?: string }) {
  return (
    <Center minH="40vh" role="status" aria-label={label}>
      <Spinner size="lg" color="blue.solid" />
    </Center>
  );
}
