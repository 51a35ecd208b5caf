import { Dialog, HStack, Portal, Spinner, Text } from '@chakra-ui/react';

/** Props of {@link ProgressDialog}. */
export interface ProgressDialogProps {
  open: boolean;
  text?: string;
}

/**
 * A modal shown while a request runs. Neither an outside click nor Escape closes it
 * (SPEC.md section 4): it goes away when the request ends.
 */
export function ProgressDialog({ open, text = 'Procesando…' }: ProgressDialogProps) {
  return (
    <Dialog.Root
      open={open}
      closeOnInteractOutside={false}
      closeOnEscape={false}
      placement="center"
      size="xs"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content aria-busy="true" data-testid="progress-dialog">
            <Dialog.Body py="6">
              <HStack gap="4">
                <Spinner size="md" color="blue.solid" />
                <Dialog.Title asChild>
                  <Text fontWeight="medium">{text}</Text>
                </Dialog.Title>
              </HStack>
            </Dialog.Body>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
