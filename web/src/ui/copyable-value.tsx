import { Button, Field, HStack, Input } from '@chakra-ui/react';
import { copyToClipboard } from './data-table/copy-to-clipboard';
import { toaster } from './toaster';

/** Props of {@link CopyableValue}. */
export interface CopyableValueProps {
  /** The field's label and accessible name ('Clave del agente'). */
  label: string;
  value: string;
  /** The button's text ('Copiar clave'). */
  copyLabel: string;
  /** What the success toast names ('Clave' → 'Clave copiada.'). */
  copiedText: string;
  testId?: string;
}

/** Copies `text`, telling how it went in a toast. */
async function copy(text: string, copiedText: string): Promise<void> {
  try {
    await copyToClipboard(text);
    toaster.create({ type: 'success', title: copiedText, duration: 2000 });
  } catch (error) {
    console.error('No se pudo copiar', error);
    toaster.create({
      type: 'error',
      title: 'No se pudo copiar. Selecciónelo y cópielo a mano.',
      duration: 4000,
    });
  }
}

/** A read-only value (selected on focus) with its copy button. */
export function CopyableValue({ label, value, copyLabel, copiedText, testId }: CopyableValueProps) {
  return (
    <Field.Root readOnly>
      <Field.Label>{label}</Field.Label>
      <HStack gap="2" w="full">
        <Input
          value={value}
          readOnly
          fontFamily="mono"
          fontSize="sm"
          data-testid={testId}
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="outline" onClick={() => void copy(value, copiedText)}>
          {copyLabel}
        </Button>
      </HStack>
    </Field.Root>
  );
}
