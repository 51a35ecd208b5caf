import { USER_TYPES, type UserTypeId } from '@concurso/shared';
import { USER_LISTS } from '../../api/catalog-api';
import { CatalogScreen } from '../../catalog-screen/catalog-screen';
import { catalogScreenSpec } from '../../catalog-screen/catalog-screen-spec';
import type { CatalogueSceneProps } from '../../catalog-screen/catalogue-scene-props';
import { PasswordFields } from './password-fields';
import { emptyUserValues, hasPasswordField, userFormResolver, userValuesOf } from './user-form';

/** Base names of the exported files, by user type. */
const EXPORT_NAMES: Record<UserTypeId, string> = {
  [USER_TYPES.admin]: 'usuarios-administradores',
  [USER_TYPES.judge]: 'usuarios-jueces',
  [USER_TYPES.participant]: 'usuarios-participantes',
};

/**
 * A users screen (docs/spec.md section 2): ID, NOMBRE, USERNAME, ACCIONES ('Editar', 'Eliminar') and
 * 'Registrar usuario' with the 'Registrar Usuario' / 'Editar Usuario' modal ('Nombre completo',
 * 'Username'); administrators and judges also have '¿Cambiar contraseña?' revealing 'Password'. Every
 * save sends the screen's user type.
 */
function usersScreen(type: UserTypeId) {
  return catalogScreenSpec(USER_LISTS[type], userFormResolver(type), {
    texts: {
      add: 'Registrar usuario',
      titles: ['Registrar Usuario', 'Editar Usuario'],
      file: EXPORT_NAMES[type],
    },
    columns: [
      { accessorKey: 'name', header: 'NOMBRE' },
      { accessorKey: 'username', header: 'USERNAME' },
    ],
    nameOf: (row) => row.username,
    emptyValues: emptyUserValues,
    valuesOf: userValuesOf,
    fields: [
      { name: 'name', label: 'Nombre completo' },
      { name: 'username', label: 'Username' },
      (dialog) => (hasPasswordField(type) ? <PasswordFields dialog={dialog} /> : null),
    ],
  });
}

const ADMINS = usersScreen(USER_TYPES.admin);
const JUDGES = usersScreen(USER_TYPES.judge);
const PARTICIPANTS = usersScreen(USER_TYPES.participant);

/** /usersAdmin: 'Información de los usuarios Administradores'. */
export function AdminUsersScene({ title }: CatalogueSceneProps) {
  return <CatalogScreen spec={ADMINS} title={title} />;
}

/** /usersJuez: 'Información de los usuarios Jueces'. */
export function JudgeUsersScene({ title }: CatalogueSceneProps) {
  return <CatalogScreen spec={JUDGES} title={title} />;
}

/** /usersParticipants: 'Información de los usuarios Participantes' (no password). */
export function ParticipantUsersScene({ title }: CatalogueSceneProps) {
  return <CatalogScreen spec={PARTICIPANTS} title={title} />;
}
