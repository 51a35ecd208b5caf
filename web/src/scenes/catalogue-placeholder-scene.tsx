import { Heading } from '@chakra-ui/react';

/** A catalogue screen not built yet: only its title, inside the shared layout. */
export function CataloguePlaceholderScene({ title }: { title: string }) {
  return (
    <Heading as="h1" size="2xl">
      {title}
    </Heading>
  );
}
