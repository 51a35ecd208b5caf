import { randomBytes } from 'node:crypto';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/mysql';
import { USER_TYPES } from '@concurso/shared';
import { User, TypeUser } from './entities.js';
import { hashPassword } from '../lib/passwords.js';

/**
 * Creates the first administrator when none exists (docs/design.md section 7): `ADMIN_USERNAME`
 * (default `admin`) with `ADMIN_PASSWORD`, or a generated password that `announce` prints once.
 * Returns the generated password, if any.
 */
export async function ensureFirstAdmin(
  em: EntityManager,
  username: string,
  password: string | undefined,
  announce: (line: string) => void,
): Promise<string | undefined> {
  const admins = await em.count(User, { type: USER_TYPES.admin });
  if (admins > 0) return undefined;
  const generated = password ? undefined : randomBytes(12).toString('base64url');
  const user = em.create(User, {
    name: 'Administrador',
    username,
    password: await hashPassword(password ?? generated!),
    type: em.getReference(TypeUser, USER_TYPES.admin),
  });
  try {
    await em.persist(user).flush();
  } catch (err) {
    // Another server process starting at the same moment created it first.
    if (err instanceof UniqueConstraintViolationException) return undefined;
    throw err;
  }
  if (generated) {
    announce(
      `Administrador inicial creado: usuario '${username}', contraseña '${generated}'. ` +
        'Guárdela: no se volverá a mostrar (o defina ADMIN_PASSWORD).',
    );
  }
  return generated;
}
