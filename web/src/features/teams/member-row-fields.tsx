import { Box, Button, Flex, SimpleGrid, Text } from '@chakra-ui/react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { SEMESTER_OPTIONS, type MembersFormValues } from './member-rows';
import { FormSelectField, type SelectOption } from '../../ui/form/form-select-field';
import { FormTextField } from '../../ui/form/form-text-field';

/** Props of {@link MemberRowFields}. */
export interface MemberRowFieldsProps {
  /** The row's position (0-based). */
  index: number;
  register: UseFormRegister<MembersFormValues>;
  errors: FieldErrors<MembersFormValues>;
  careerOptions: readonly SelectOption[];
  /** Removes the row; null while it is the only one. */
  onRemove: (() => void) | null;
}

/**
 * One participant of 'Registrar integrantes': 'Código', 'Nombre', 'Carrera' and 'Semestre' (1 to 10)
 * with their errors, and 'Quitar'. The row is a group named 'Participante {n}', so each field is found
 * by its label within its row.
 */
export function MemberRowFields({ index, register, errors, careerOptions, onRemove }: MemberRowFieldsProps) {
  const rowErrors = errors.members?.[index];
  const title = `Participante ${index + 1}`;
  return (
    <Box
      role="group"
      aria-label={title}
      borderWidth="1px"
      rounded="md"
      p="3"
      data-testid={`member-row-${index}`}
    >
      <Flex justify="space-between" align="center" mb="2">
        <Text fontWeight="medium">{title}</Text>
        <Button
          size="xs"
          variant="outline"
          colorPalette="red"
          onClick={onRemove ?? undefined}
          disabled={!onRemove}
        >
          Quitar
        </Button>
      </Flex>
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
        <FormTextField
          label="Código"
          error={rowErrors?.code?.message}
          registration={register(`members.${index}.code`)}
        />
        <FormTextField
          label="Nombre"
          error={rowErrors?.name?.message}
          registration={register(`members.${index}.name`)}
        />
        <FormSelectField
          label="Carrera"
          placeholder="Seleccione la carrera..."
          options={careerOptions}
          error={rowErrors?.careers_id?.message}
          registration={register(`members.${index}.careers_id`)}
        />
        <FormSelectField
          label="Semestre"
          placeholder="Seleccione el semestre..."
          options={SEMESTER_OPTIONS}
          error={rowErrors?.semester?.message}
          registration={register(`members.${index}.semester`)}
        />
      </SimpleGrid>
    </Box>
  );
}
