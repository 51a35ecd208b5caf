import { LockMode, type Loaded } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import { USER_TYPES, type UserRow } from '@concurso/shared';
import { TypeUser } from './type-user.entity.js';
import { User, type IUser } from './user.entity.js';

/**
 * The only place that reads and writes `users` for the users module (docs/design.md sections 3 and 5;
 * sessions read them in auth.repository.ts). Functions take the EntityManager first so they run
 * inside `transaction(em, work)` forks. No answer ever carries a password.
 */

/** A user as the lists answer it: never a password. */
function toUserRow(user: Loaded<IUser>): UserRow {
  return { id: user.id, name: user.name, username: user.username, types_users_id: user.type.id };
}

/** Users of one type, oldest first. */
export async function listUserRows(em: EntityManager, type: number): Promise<UserRow[]> {
  return (await em.find(User, { type }, { orderBy: { id: 'asc' } })).map(toUserRow);
}

/** True when `username` belongs to a user other than `exceptId` (compared ignoring case, by the column's collation). */
export async function usernameTaken(em: EntityManager, username: string, exceptId = 0): Promise<boolean> {
  return (await em.count(User, { username, id: { $ne: exceptId } })) > 0;
}

/** What a write stores: `password` is already an argon2id hash, or null (participants). */
export interface UserRecord {
  name: string;
  username: string;
  password: string | null;
  types_users_id: number;
}

/** Inserts a user and answers its row. */
export async function insertUser(em: EntityManager, record: UserRecord): Promise<UserRow> {
  const user = em.create(
    User,
    {
      name: record.name,
      username: record.username,
      password: record.password,
      type: em.getReference(TypeUser, record.types_users_id),
    },
    // `partial`: MikroORM 6.6 types a hidden nullable column as required and not null.
    { partial: true },
  );
  await em.flush();
  return toUserRow(user);
}

/**
 * A user read with its row locked until the transaction ends (`for update`: two admins changing each
 * other at once wait in line), or null.
 */
export function lockUser(em: EntityManager, id: number) {
  return em.findOne(User, id, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
}

/** How many administrators there are, locking their rows until the transaction ends. */
export function lockAdminCount(em: EntityManager): Promise<number> {
  return em
    .createQueryBuilder(User)
    .where({ type: USER_TYPES.admin })
    .setLockMode(LockMode.PESSIMISTIC_WRITE)
    .getCount();
}

/**
 * Writes a locked user's new fields; `password` undefined keeps the stored hash; `endSessions` bumps
 * `session_version`, which ends every session the user had. Answers the user's row.
 */
export async function saveUser(
  em: EntityManager,
  user: Loaded<IUser>,
  changes: Omit<UserRecord, 'password'> & { password?: string | null; endSessions: boolean },
): Promise<UserRow> {
  em.assign(user, {
    name: changes.name,
    username: changes.username,
    type: em.getReference(TypeUser, changes.types_users_id),
    ...(changes.password !== undefined && { password: changes.password }),
  });
  // The row is locked (`lockUser`), so the loaded version is the current one.
  if (changes.endSessions) user.session_version += 1;
  await em.flush();
  return toUserRow(user);
}

/** Deletes a user; their audit rows keep the change with no user (the foreign key sets null). */
export async function deleteUser(em: EntityManager, id: number): Promise<boolean> {
  return (await em.nativeDelete(User, { id })) > 0;
}
