import type { EntityManager } from '@mikro-orm/mysql';
import { MESSAGES, USER_TYPES, type UserRow } from '@concurso/shared';
import { HttpError, fieldError } from '../../lib/http-error.js';
import { hashPassword } from '../../lib/passwords.js';
import {
  deleteUser as deleteUserRow,
  insertUser,
  lockAdminCount,
  lockUser,
  saveUser,
  usernameTaken,
} from './users.repository.js';

/** 409 when `username` belongs to another user (usernames are unique, compared ignoring case). */
async function assertUsernameFree(em: EntityManager, username: string, exceptId = 0): Promise<void> {
  if (await usernameTaken(em, username, exceptId)) {
    throw new HttpError(409, `El nombre de usuario "${username}" ya está en uso.`);
  }
}

/** 409 when there is one administrator left (their rows stay locked until the transaction ends). */
async function assertNotLastAdmin(em: EntityManager): Promise<void> {
  if ((await lockAdminCount(em)) <= 1)
    throw new HttpError(409, 'No se puede quitar al último administrador.');
}

/** A user as a create or update sends it (docs/spec.md section 7), the password in clear. */
export interface UserWrite {
  name: string;
  username: string;
  password?: string | null;
  types_users_id: number;
}

/** Creates a user: staff get an argon2id hash of their password, participants no password. */
export async function createUser(em: EntityManager, input: UserWrite): Promise<UserRow> {
  await assertUsernameFree(em, input.username);
  const password =
    input.types_users_id === USER_TYPES.participant || !input.password
      ? null
      : await hashPassword(input.password);
  return insertUser(em, { ...input, password });
}

/** A user after an update, and why their sessions ended (null: they go on). */
export interface UserUpdate {
  row: UserRow;
  sessionsEnded: 'password' | 'role' | null;
}

/**
 * Updates a user; an empty password keeps the current one, a participant never keeps one. Staff
 * without a password (a participant promoted) must be given one (422). The last administrator cannot
 * stop being one (409). A new password or a new role bumps `session_version`, which ends every
 * session the user had. Answers null when the id does not exist.
 */
export async function updateUser(
  em: EntityManager,
  id: number,
  input: UserWrite,
): Promise<UserUpdate | null> {
  const user = await lockUser(em, id);
  if (!user) return null;
  await assertUsernameFree(em, input.username, id);
  const currentType = user.type.id;
  if (currentType === USER_TYPES.admin && input.types_users_id !== USER_TYPES.admin) {
    await assertNotLastAdmin(em);
  }
  const staff = input.types_users_id !== USER_TYPES.participant;
  if (staff && !input.password && !user.password) throw fieldError('password', MESSAGES.required);
  const password = !staff ? null : input.password ? await hashPassword(input.password) : undefined;
  const roleChanged = currentType !== input.types_users_id;
  const passwordChanged = staff && Boolean(input.password);
  const row = await saveUser(em, user, {
    name: input.name,
    username: input.username,
    types_users_id: input.types_users_id,
    password,
    endSessions: roleChanged || passwordChanged,
  });
  return { row, sessionsEnded: roleChanged ? 'role' : passwordChanged ? 'password' : null };
}

/**
 * Deletes a user (docs/design.md section 5): nobody deletes their own account or the last administrator
 * (409). Their audit rows keep the change with no user. Answers false when the id does not exist.
 */
export async function deleteUser(em: EntityManager, id: number, actingUserId: number): Promise<boolean> {
  if (id === actingUserId) throw new HttpError(409, 'No puede eliminar su propia cuenta.');
  const user = await lockUser(em, id);
  if (!user) return false;
  if (user.type.id === USER_TYPES.admin) await assertNotLastAdmin(em);
  return deleteUserRow(em, id);
}
