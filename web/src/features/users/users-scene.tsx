import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { USER_TYPES, type UserInput, type UserRow, type UserTypeId } from '@concurso/shared';
import { USER_LISTS, createCatalogRow, updateCatalogRow } from '../../api/catalog-api';
import { FormCheckboxField } from '../../ui/form/form-checkbox-field';
import { FormTextField } from '../../ui/form/form-text-field';
import { CatalogScene } from '../../catalog-screen/catalog-scene';
import type { DataColumn } from '../../ui/data-table/table-model';
import { useCatalogForm } from '../../catalog-screen/use-catalog-form';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { emptyUserValues, hasPasswordField, userFormResolver, userValuesOf } from './user-form';

const TITLES = { create: 'Registrar Usuario', update: 'Editar Usuario' };
/** Base names of the exported files, by user type. */
const EXPORT_NAMES: Record<UserTypeId, string> = {
  [USER_TYPES.admin]: 'usuarios-administradores',
  [USER_TYPES.judge]: 'usuarios-jueces',
  [USER_TYPES.participant]: 'usuarios-participantes',
};

/** Props of {@link UsersScene}: the route's title and the user type the screen lists. */
export interface UsersSceneProps extends CatalogueSceneProps {
  type: UserTypeId;
}

const COLUMNS: DataColumn<UserRow>[] = [
  { accessorKey: 'id', header: 'ID' },
  { accessorKey: 'name', header: 'NOMBRE' },
  { accessorKey: 'username', header: 'USERNAME' },
];
const nameOf = (row: UserRow) => row.username;

/**
 * A users screen (SPEC.md section 2): ID, NOMBRE, USERNAME, ACCIONES ('Editar', 'Eliminar') and
 * 'Registrar usuario' with the 'Registrar Usuario' / 'Editar Usuario' modal ('Nombre completo',
 * 'Username'); administrators and judges also have '¿Cambiar contraseña?' revealing 'Password' (ticked
 * and fixed on create, where the password is required). Every save sends the screen's user type.
 */
export function UsersScene({ title, type }: UsersSceneProps) {
  const catalog = USER_LISTS[type];
  const resolver = useMemo(() => userFormResolver(type), [type]);
  const save = useMemo(
    () => (input: UserInput, editing: UserRow | null) =>
      editing ? updateCatalogRow(catalog, editing.id, input) : createCatalogRow(catalog, input),
    [catalog],
  );
  const dialog = useCatalogForm({
    catalog,
    resolver,
    emptyValues: emptyUserValues,
    valuesOf: userValuesOf,
    save,
    titles: TITLES,
  });
  const { form, mode } = dialog;
  const { errors } = form.formState;
  const changePassword = useWatch({ control: form.control, name: 'change_password' });
  const withPassword = hasPasswordField(type);

  return (
    <CatalogScene
      catalog={catalog}
      title={title}
      createLabel="Registrar usuario"
      exportName={EXPORT_NAMES[type]}
      dialog={dialog}
      columns={COLUMNS}
      nameOf={nameOf}
      fields={
        <>
          <FormTextField
            label="Nombre completo"
            error={errors.name?.message}
            registration={form.register('name')}
          />
          <FormTextField
            label="Username"
            error={errors.username?.message}
            registration={form.register('username')}
          />
          {withPassword ? (
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
          ) : null}
          {withPassword && changePassword ? (
            <FormTextField
              label="Password"
              type="password"
              autoComplete="new-password"
              error={errors.password?.message}
              registration={form.register('password')}
            />
          ) : null}
        </>
      }
    />
  );
}

/** /usersAdmin: 'Información de los usuarios Administradores'. */
export function AdminUsersScene({ title }: CatalogueSceneProps) {
  return <UsersScene title={title} type={USER_TYPES.admin} />;
}

/** /usersJuez: 'Información de los usuarios Jueces'. */
export function JudgeUsersScene({ title }: CatalogueSceneProps) {
  return <UsersScene title={title} type={USER_TYPES.judge} />;
}

/** /usersParticipants: 'Información de los usuarios Participantes' (no password). */
export function ParticipantUsersScene({ title }: CatalogueSceneProps) {
  return <UsersScene title={title} type={USER_TYPES.participant} />;
}
