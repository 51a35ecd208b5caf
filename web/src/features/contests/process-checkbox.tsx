import { memo } from 'react';
import { Checkbox } from '@chakra-ui/react';
import type { ProcessRow } from '@concurso/shared';

/** Props of {@link ProcessCheckbox}. */
export interface ProcessCheckboxProps {
  process: ProcessRow;
  checked: boolean;
  onToggle: (id: number, checked: boolean) => void;
}

/** One process of the assign list, labelled by its name. Memoised: a tick re-renders only its row. */
export const ProcessCheckbox = memo(function ProcessCheckbox({
  process,
  checked,
  onToggle,
}: ProcessCheckboxProps) {
  return (
    <Checkbox.Root
      py="1"
      checked={checked}
      onCheckedChange={(details) => onToggle(process.id, details.checked === true)}
    >
      <Checkbox.HiddenInput />
      <Checkbox.Control />
      <Checkbox.Label>{process.name}</Checkbox.Label>
    </Checkbox.Root>
  );
});
