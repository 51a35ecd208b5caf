import { Button, Dialog, HStack, Progress, Spinner, Stack, Text } from '@chakra-ui/react';
import { AppDialog } from './app-dialog';

/** Props of {@link ProgressDialog}. */
export interface ProgressDialogProps {
  open: boolean;
  text?: string;
  /** An upload's percentage (0..100) under the text; null shows an indeterminate bar; undefined none. */
  percent?: number | null;
  /** Shows 'Cancelar', which calls it (an upload the user may abort). */
  onCancel?: (() => void) | null;
}

/**
 * A modal shown while a request runs. Neither an outside click nor Escape closes it
 * (docs/spec.md section 4): it goes away when the request ends. An upload adds its progress bar with the
 * percentage and a 'Cancelar' button.
 */
export function ProgressDialog({ open, text = 'Procesando…', percent, onCancel }: ProgressDialogProps) {
  const transfer = percent !== undefined;
  // No `onClose`: neither an outside click nor Escape closes it.
  return (
    <AppDialog open={open} size="xs" testId="progress-dialog" ariaBusy bodyProps={{ py: '6' }}>
      <Stack gap="4">
        <HStack gap="4">
          <Spinner size="md" color="blue.solid" />
          <Dialog.Title asChild>
            <Text fontWeight="medium">{text}</Text>
          </Dialog.Title>
        </HStack>
        {transfer ? (
          <Progress.Root
            value={percent}
            max={100}
            size="sm"
            colorPalette="blue"
            data-testid="upload-progress"
          >
            <HStack gap="3">
              <Progress.Track flex="1">
                <Progress.Range />
              </Progress.Track>
              <Progress.ValueText data-testid="upload-percent" minW="10" textAlign="end">
                {percent === null ? '…' : `${percent} %`}
              </Progress.ValueText>
            </HStack>
          </Progress.Root>
        ) : null}
        {onCancel ? (
          <Button size="sm" variant="outline" alignSelf="end" onClick={onCancel}>
            Cancelar
          </Button>
        ) : null}
      </Stack>
    </AppDialog>
  );
}
