import { Stack, Text } from '@chakra-ui/react';
import type { ContestRow } from '@concurso/shared';
import { useCatalogRows } from '../../api/queries/catalog-queries';
import { contestWithDate } from '../../catalog-screen/contest-options';
import { AppDialog } from '../../ui/dialog/app-dialog';
import { FormButtons } from '../../ui/form/form-buttons';
import { AllowedSitesField } from './allowed-sites-field';
import { networkVersionText } from './allowed-sites-form';
import { useAllowedSites } from './use-allowed-sites';

/** Props of {@link AllowedSitesDialog}. */
export interface AllowedSitesDialogProps {
  contest: ContestRow | null;
  open: boolean;
  onClose: () => void;
}

/**
 * 'Política de red del concurso' (the contests table's «Sitios permitidos»): the contest,
 * its policy's version ('Versión actual: v3' / 'Sin política de red'), the text area with one site per
 * line and what is always allowed; 'Guardar' replaces the list (`POST /api/updateAllowedSites`). The
 * agents of the active contest get the new version on the push channel; /laboratorio shows it applied.
 */
export function AllowedSitesDialog({ contest, open, onClose }: AllowedSitesDialogProps) {
  const { form, saving, submit } = useAllowedSites(contest, open, onClose);
  // The version as the list has it now (another admin may save meanwhile), the row pressed otherwise.
  const { rows } = useCatalogRows('contests');
  const current = rows.find((row) => row.id === contest?.id) ?? contest;

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      busy={saving}
      title="Política de red del concurso"
      closeButton
      testId="allowed-sites-dialog"
      onSubmit={(event) => void submit(event)}
      footer={<FormButtons onCancel={onClose} saving={saving} />}
    >
      <Stack gap="4">
        <Stack gap="1">
          <Text color="fg.muted">Concurso {contest ? contestWithDate(contest) : ''}</Text>
          <Text fontWeight="medium" data-testid="network-version">
            {current ? networkVersionText(current) : ''}
          </Text>
        </Stack>
        <AllowedSitesField
          registration={form.register('allowed_sites')}
          error={form.formState.errors.allowed_sites?.message}
          text={form.watch('allowed_sites')}
        />
      </Stack>
    </AppDialog>
  );
}
