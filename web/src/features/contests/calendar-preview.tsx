import { Field, Input } from '@chakra-ui/react';
import { useWatch, type Control } from 'react-hook-form';
import type { ContestInput } from '@concurso/shared';
import { calendarPreview, type ContestFormValues } from './contest-form-values';

/**
 * The contest modal's read-only 'Calendario': the calendar the typed date belongs to, updated as the
 * date changes (the client sends it with the date, docs/design.md section 3).
 */
export function CalendarPreview({ control }: { control: Control<ContestFormValues, unknown, ContestInput> }) {
  const date = useWatch({ control, name: 'date' });
  return (
    <Field.Root readOnly>
      <Field.Label>Calendario</Field.Label>
      <Input value={calendarPreview(date)} readOnly tabIndex={-1} bg="bg.muted" />
      <Field.HelperText>Se deriva de la fecha: A de enero a junio, B de julio a diciembre.</Field.HelperText>
    </Field.Root>
  );
}
