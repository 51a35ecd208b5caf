import { hash, verify } from '@node-rs/argon2';

/** argon2id hash of a password (docs/design.md section 5), PHC string (`$argon2id$...`: the library's default). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** True when `password` matches the stored PHC hash; false for a malformed hash. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A throwaway hash to compare against when the user does not exist, so timing does not tell. */
export const DUMMY_HASH_PROMISE = hashPassword('contraseña-inexistente');
