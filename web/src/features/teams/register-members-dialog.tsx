import { useEffect } from 'react';
import { Button, Stack } from '@chakra-ui/react';
import type { TeamRow } from '@concurso/shared';
import { useMembersForm } from './use-members-form';
import { useCatalogOptions } from '../../catalog-screen/use-catalog-options';
import { careerOptionLabel } from './member-labels';
import { MAX_MEMBER_ROWS, emptyMemberRow } from './member-rows';
import { AppDialog } from '../../ui/dialog/app-dialog';
import { FormButtons } from '../../ui/form/form-buttons';
import { MemberRowFields } from './member-row-fields';

/** Props of {@link RegisterMembersDialog}. */
export interface RegisterMembersDialogProps {
  /** The team the members join; kept while the dialog closes. */
  team: TeamRow | null;
  open: boolean;
  onClose: () => void;
}

/**
 * 'Registrar integrantes del equipo: {team}' (docs/spec.md sections 2 and 5): starts with one empty row;
 * 'Agregar participante' adds one, 'Quitar' removes one; 'Guardar' sends every row at once. It cannot be
 * dismissed while saving.
 */
export function RegisterMembersDialog({ team, open, onClose }: RegisterMembersDialogProps) {
  const careerOptions = useCatalogOptions('careers', careerOptionLabel);
  const { form, rows, submitting, submit, restart } = useMembersForm(onClose);
  const teamId = team?.id ?? null;
  const { errors } = form.formState;

  useEffect(() => {
    // Every opening starts over for its team: one empty row, no errors.
    if (open && teamId !== null) restart(teamId);
  }, [open, teamId, restart]);

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      busy={submitting}
      title={`Registrar integrantes del equipo: ${team?.name ?? ''}`}
      size="xl"
      scrollBehavior="inside"
      closeButton
      onSubmit={(event) => void submit(event)}
      footer={<FormButtons onCancel={onClose} saving={submitting} />}
    >
      <Stack gap="3">
        {rows.fields.map((row, index) => (
          <MemberRowFields
            key={row.id}
            index={index}
            register={form.register}
            errors={errors}
            careerOptions={careerOptions}
            onRemove={rows.fields.length > 1 ? () => rows.remove(index) : null}
          />
        ))}
        <Button
          variant="outline"
          colorPalette="blue"
          alignSelf="start"
          disabled={rows.fields.length >= MAX_MEMBER_ROWS}
          onClick={() => rows.append(emptyMemberRow())}
        >
          Agregar participante
        </Button>
      </Stack>
    </AppDialog>
  );
}
