import type { ReactNode } from 'react';
import { Flex, Heading, HStack, Stack } from '@chakra-ui/react';

/** Props of {@link PageFrame}. */
export interface PageFrameProps {
  /** The screen's heading: 'Información de los concursos'… */
  title: string;
  /** The buttons beside the title ('Registrar …'). */
  actions: ReactNode;
  /** The table and the screen's dialogs. */
  children: ReactNode;
}

/** The frame of a screen: its title and buttons on one line, the content under them. */
export function PageFrame({ title, actions, children }: PageFrameProps) {
  return (
    <Stack gap="5">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Heading as="h1" size="2xl">
          {title}
        </Heading>
        <HStack gap="2" wrap="wrap">
          {actions}
        </HStack>
      </Flex>
      {children}
    </Stack>
  );
}
