/**
 * The user modal's rules (docs/spec.md sections 2, 4 and 5): name and username always; a password only for
 * administrators and judges, required on create and, on edit, only when '¿Cambiar contraseña?' is
 * ticked (an empty password keeps the current one). Pure: the users scene binds them to its form.
 */
import {
  MESSAGES,
  USER_TYPES,
  userFieldsSchema,
  type UserInput,
  type UserRow,
  type UserTypeId,
} from '@concurso/shared';
import type { Resolver } from 'react-hook-form';
import { resolveParse } from '../../ui/form/schema-resolver';

/** The modal's fields. `change_password` is the checkbox, not sent. */
export interface UserFormValues {
  name: string;
  username: string;
  password: string;
  change_password: boolean;
}

/** True for the user types whose modal has '¿Cambiar contraseña?' and 'Password' (not participants). */
export function hasPasswordField(type: UserTypeId): boolean {
  return type !== USER_TYPES.participant;
}

/** True when the password must be given: staff with the box ticked (always ticked on create). */
export function passwordRequired(type: UserTypeId, changePassword: boolean): boolean {
  return hasPasswordField(type) && changePassword;
}

/** A new user's fields: the box starts ticked, since an administrator or judge needs a password. */
export function emptyUserValues(): UserFormValues {
  return { name: '', username: '', password: '', change_password: true };
}

/** An edited user's fields: the password stays empty and unticked (docs/spec.md section 4). */
export function userValuesOf(row: Pick<UserRow, 'name' | 'username'>): UserFormValues {
  return { name: row.name, username: row.username, password: '', change_password: false };
}

/**
 * The body of `createUser` / `updateUser` (without `id`): the screen's type and the password only when
 * it is required, so an unticked edit keeps the current one and a participant never gets one.
 */
export function toUserInput(values: UserFormValues, type: UserTypeId): UserInput {
  const input: UserInput = { name: values.name, username: values.username, types_users_id: type };
  if (passwordRequired(type, values.change_password)) input.password = values.password;
  return input;
}

// The shared update rules without the id (the id travels apart), password policy included (at least
// 10 characters, not the username, not a common one); a password that is sent must not be empty.
const userFormSchema = userFieldsSchema.superRefine((user, ctx) => {
  if (user.password !== undefined && !user.password) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: MESSAGES.required });
  }
});

/** The modal's resolver for users of `type`: the shared rules on the body {@link toUserInput} builds. */
export function userFormResolver(type: UserTypeId): Resolver<UserFormValues, unknown, UserInput> {
  return (values) =>
    resolveParse<UserFormValues, UserInput>(userFormSchema.safeParse(toUserInput(values, type)));
}
