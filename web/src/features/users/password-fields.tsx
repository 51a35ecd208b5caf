import { useWatch } from 'react-hook-form';
import type { UserInput, UserRow } from '@concurso/shared';
import type { CatalogForm } from '../../catalog-screen/use-catalog-form';
import { FormCheckboxField } from '../../ui/form/form-checkbox-field';
import { FormTextField } from '../../ui/form/form-text-field';
import type { UserFormValues } from './user-form';

/**
 * '¿Cambiar contraseña?' and, while it is ticked, 'Password' (administrators and judges; docs/spec.md
 * section 4). Ticked and fixed on create, where the password is required; unticking forgets what was
 * typed, so no password is sent.
 */
export function PasswordFields({ dialog }: { dialog: CatalogForm<UserFormValues, UserInput, UserRow> }) {
  const { form, mode } = dialog;
  const { errors } = form.formState;
  const changePassword = useWatch({ control: form.control, name: 'change_password' });
  return (
    <>
      <FormCheckboxField
        label="¿Cambiar contraseña?"
        checked={changePassword}
        // A new administrator or judge must get a password.
        disabled={mode === 'create'}
        onChange={(checked) => {
          form.setValue('change_password', checked);
          if (!checked) {
            // An unticked box sends no password: forget what was typed and its error.
            form.setValue('password', '');
            form.clearErrors('password');
          }
        }}
      />
      {changePassword ? (
        <FormTextField
          label="Password"
          type="password"
          autoComplete="new-password"
          error={errors.password?.message}
          registration={form.register('password')}
        />
      ) : null}
    </>
  );
}
