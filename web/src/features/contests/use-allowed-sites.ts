import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { MESSAGES, contestsRoutes, type AllowedSitesInput, type ContestRow } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { catalogListKey } from '../../api/queries/catalog-queries';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { submitOrWarn } from '../../catalog-screen/form-feedback';
import { useFeedbackStore } from '../../stores/feedback-store';
import { toaster } from '../../ui/toaster';
import {
  allowedSitesResolver,
  allowedSitesText,
  describeAllowedSitesFailure,
  networkVersionText,
  type AllowedSitesFormOutput,
  type AllowedSitesFormValues,
} from './allowed-sites-form';

/** `POST /api/updateAllowedSites` (`contestsRoutes.updateAllowedSites`, admin). */
const updateAllowedSites = (body: AllowedSitesInput) => callApi(contestsRoutes.updateAllowedSites, { body });
/** The contests list: the row's `allowed_sites` and `network_version` change with the save. */
const contestsKey = () => catalogListKey('contests');

/**
 * The state of the «Sitios permitidos» dialog: the text area, filled with the contest's
 * stored sites at each opening; `submit`, which checks the lines with the shared schema, replaces the
 * list under 'Procesando…' (the contests list refetches), closes with a toast saying the new version,
 * or puts the server's refused lines under the text area.
 */
export function useAllowedSites(contest: ContestRow | null, open: boolean, onClose: () => void) {
  const form = useForm<AllowedSitesFormValues, unknown, AllowedSitesFormOutput>({
    resolver: allowedSitesResolver,
    defaultValues: { allowed_sites: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const save = useInvalidatingMutation(updateAllowedSites, contestsKey);
  const [saving, setSaving] = useState(false);
  const contestId = contest?.id ?? null;
  // The row as it was when its button was pressed (`useRowDialog`): a refetch of the list while the
  // dialog is open does not reset what is being typed.
  const stored = contest?.allowed_sites;

  useEffect(() => {
    if (open && stored) form.reset({ allowed_sites: allowedSitesText(stored) });
  }, [open, stored, form]);

  const onValid = async ({ allowed_sites }: AllowedSitesFormOutput) => {
    if (contestId === null) return;
    // The text sent: the server's refusals name its entries by index.
    const text = form.getValues('allowed_sites');
    const feedback = useFeedbackStore.getState();
    setSaving(true);
    try {
      const answer = await feedback.withProgress(() => save({ contests_id: contestId, allowed_sites }));
      toaster.create({
        type: 'success',
        title: answer.message || MESSAGES.saved,
        description: networkVersionText(answer.data),
        duration: 2500,
      });
      onClose();
    } catch (error) {
      console.error('No se pudieron guardar los sitios permitidos', error);
      const view = describeAllowedSitesFailure(error, text);
      if (view.fieldError !== null)
        form.setError('allowed_sites', { type: 'server', message: view.fieldError });
      if (view.message) feedback.showMessage(view.message);
    } finally {
      setSaving(false);
    }
  };

  return { form, saving, submit: submitOrWarn(form, onValid) };
}
