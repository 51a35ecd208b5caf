import type { ReactNode } from 'react';
import { Flex, Heading, HStack, Stack } from '@chakra-ui/react';
import { FeedbackHost } from './feedback-host';

/** Props of {@link CatalogPage}. */
export interface CatalogPageProps {
  /** 'Información de los concursos'… */
  title: string;
  /** The buttons beside the title ('Registrar …'). */
  actions: ReactNode;
  /** The table and the screen's dialogs. */
  children: ReactNode;
}

/** The frame of a catalogue screen: title, its buttons, the content and the modal feedback. */
export function CatalogPage({ title, actions, children }: CatalogPageProps) {
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
      <FeedbackHost />
    </Stack>
  );
}
