import type { EntityManager } from '@mikro-orm/mysql';
import { USER_TYPES, type UserRow } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';
import { hashPassword } from '../../lib/passwords.js';

/** Users of one type, oldest first; never a password. */
export async function listUsers(em: EntityManager, type: number): Promise<UserRow[]> {
  const rows = await em.execute<UserRow[]>(
    'select id, name, username, types_users_id from users where types_users_id = ? order by id',
    [type],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    username: r.username,
    types_users_id: Number(r.types_users_id),
  }));
}

async function userRow(em: EntityManager, id: number): Promise<UserRow | null> {
  const rows = await em.execute<UserRow[]>(
    'select id, name, username, types_users_id from users where id = ?',
    [id],
  );
  const r = rows[0];
  return r
    ? { id: Number(r.id), name: r.name, username: r.username, types_users_id: Number(r.types_users_id) }
    : null;
}

/** 409 when `username` belongs to another user (usernames are unique, compared ignoring case). */
async function assertUsernameFree(em: EntityManager, username: string, exceptId = 0): Promise<void> {
  const rows = await em.execute('select id from users where username = ? and id <> ?', [username, exceptId]);
  if (rows.length > 0) throw new HttpError(409, `El nombre de usuario "${username}" ya está en uso.`);
}

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
  const now = new Date();
  const result = await em.execute<{ insertId: number }>(
    'insert into users (name, username, password, types_users_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?)',
    [input.name, input.username, password, input.types_users_id, now, now],
    'run',
  );
  return (await userRow(em, Number(result.insertId)))!;
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
 * session the user had (issue 10). Answers null when the id does not exist.
 */
export async function updateUser(
  em: EntityManager,
  id: number,
  input: UserWrite,
): Promise<UserUpdate | null> {
  const rows = await em.execute<Array<{ types_users_id: number; has_password: number }>>(
    'select types_users_id, password is not null as has_password from users where id = ? for update',
    [id],
  );
  const current = rows[0];
  if (!current) return null;
  await assertUsernameFree(em, input.username, id);
  if (Number(current.types_users_id) === USER_TYPES.admin && input.types_users_id !== USER_TYPES.admin) {
    await assertNotLastAdmin(em);
  }
  const staff = input.types_users_id !== USER_TYPES.participant;
  if (staff && !input.password && !Number(current.has_password)) {
    throw new HttpError(422, 'Por favor llene todos los campos correctamente', {
      password: ['Este campo es requerido'],
    });
  }
  const sets = ['name = ?', 'username = ?', 'types_users_id = ?', 'updated_at = ?'];
  const params: unknown[] = [input.name, input.username, input.types_users_id, new Date()];
  if (!staff) sets.push('password = null');
  else if (input.password) {
    sets.push('password = ?');
    params.push(await hashPassword(input.password));
  }
  const roleChanged = Number(current.types_users_id) !== input.types_users_id;
  const passwordChanged = staff && Boolean(input.password);
  if (roleChanged || passwordChanged) sets.push('session_version = session_version + 1');
  await em.execute(`update users set ${sets.join(', ')} where id = ?`, [...params, id]);
  const row = (await userRow(em, id))!;
  return { row, sessionsEnded: roleChanged ? 'role' : passwordChanged ? 'password' : null };
}

async function assertNotLastAdmin(em: EntityManager): Promise<void> {
  const admins = await em.execute<Array<{ n: number }>>(
    'select count(*) as n from users where types_users_id = ? for update',
    [USER_TYPES.admin],
  );
  if (Number(admins[0]?.n) <= 1) throw new HttpError(409, 'No se puede quitar al último administrador.');
}

/**
 * Deletes a user (DESIGN.md section 5): nobody deletes their own account or the last administrator
 * (409). Their audit rows keep the change with no user. Answers false when the id does not exist.
 */
export async function deleteUser(em: EntityManager, id: number, actingUserId: number): Promise<boolean> {
  if (id === actingUserId) throw new HttpError(409, 'No puede eliminar su propia cuenta.');
  const rows = await em.execute<Array<{ types_users_id: number }>>(
    'select types_users_id from users where id = ? for update',
    [id],
  );
  if (!rows[0]) return false;
  if (Number(rows[0].types_users_id) === USER_TYPES.admin) await assertNotLastAdmin(em);
  await em.execute('delete from users where id = ?', [id]);
  return true;
}
