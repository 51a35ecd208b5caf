import { useCallback, useState, type FormEvent } from 'react';
import { useFieldArray, useForm, type UseFieldArrayReturn, type UseFormReturn } from 'react-hook-form';
import { MESSAGES, membersRoutes, type MemberInput } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { toaster } from '../../ui/toaster';
import {
  memberFieldNames,
  memberFormField,
  membersFormValues,
  membersResolver,
  type MembersFormOutput,
  type MembersFormValues,
} from './member-rows';
import { useFeedbackStore } from '../../stores/feedback-store';
import { describeSaveFailure } from '../../catalog-screen/catalog-failures';
import { showSaveFailure, submitOrWarn } from '../../catalog-screen/form-feedback';
import { teamMembersQuery } from './team-members-query';

/** `POST /api/createMember` (`membersRoutes.create`): the whole list of one team, all or none. */
const createMembers = (members: MemberInput[]) => callApi(membersRoutes.create, { body: members });
/** The team whose list a save changes (every row has the same team). */
const membersKeyOf = (members: MemberInput[]) => teamMembersQuery(members[0]?.teams_id ?? 0).queryKey;

/** The state and actions of the 'Registrar integrantes' form. */
export interface MembersForm {
  form: UseFormReturn<MembersFormValues, unknown, MembersFormOutput>;
  /** The repeatable rows (`useFieldArray` of `members`). */
  rows: UseFieldArrayReturn<MembersFormValues, 'members'>;
  submitting: boolean;
  submit: (event?: FormEvent<HTMLFormElement>) => Promise<void>;
  /** Starts over for a team: one empty row, no errors. */
  restart: (teamId: number) => void;
}

/**
 * The 'Registrar integrantes' form (docs/spec.md sections 2, 5, 7 and 8): rows validated with the shared
 * member rules ('Este campo es requerido' under each field, the 'Información' warning on an invalid
 * submit), sent as one `createMember` list under 'Procesando…' (a mutation after which the team's
 * 'Ver integrantes' list refetches); 'Registrado' then `onSaved`; a failure
 * shows 'Hubo un problema al registrar a los integrantes', or the server's text of a code already in
 * another team, with 422 messages under their row's field.
 */
export function useMembersForm(onSaved: () => void): MembersForm {
  const form = useForm<MembersFormValues, unknown, MembersFormOutput>({
    resolver: membersResolver,
    defaultValues: membersFormValues(0),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const rows = useFieldArray({ control: form.control, name: 'members' });
  const [submitting, setSubmitting] = useState(false);
  const saveMembers = useInvalidatingMutation(createMembers, membersKeyOf);

  const restart = useCallback((teamId: number) => form.reset(membersFormValues(teamId)), [form]);

  const onValid = async ({ members }: MembersFormOutput) => {
    const feedback = useFeedbackStore.getState();
    setSubmitting(true);
    try {
      const answer = await feedback.withProgress(() => saveMembers(members));
      toaster.create({ type: 'success', title: answer.message || MESSAGES.created, duration: 2500 });
      onSaved();
    } catch (error) {
      console.error('No se pudieron registrar los integrantes', error);
      const fields = memberFieldNames(form.getValues('members').length);
      showSaveFailure(
        form,
        describeSaveFailure(error, MESSAGES.membersCreateFailed, fields, memberFormField),
      );
    } finally {
      setSubmitting(false);
    }
  };

  const submit = submitOrWarn(form, onValid);

  return { form, rows, submitting, submit, restart };
}
