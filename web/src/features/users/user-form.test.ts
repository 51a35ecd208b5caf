import { describe, expect, it } from 'vitest';
import type { ResolverOptions } from 'react-hook-form';
import { PASSWORD_MESSAGES, USER_TYPES } from '@concurso/shared';
import {
  emptyUserValues,
  hasPasswordField,
  passwordRequired,
  toUserInput,
  userFormResolver,
  userValuesOf,
  type UserFormValues,
} from './user-form';

const options = {} as ResolverOptions<UserFormValues>;
const { admin, judge, participant } = USER_TYPES;

describe('the password rule (docs/spec.md sections 4 and 5)', () => {
  it('is required for staff with the box ticked, never for participants', () => {
    expect(passwordRequired(admin, true)).toBe(true);
    expect(passwordRequired(judge, true)).toBe(true);
    expect(passwordRequired(judge, false)).toBe(false);
    expect(passwordRequired(participant, true)).toBe(false);
    expect(hasPasswordField(admin)).toBe(true);
    expect(hasPasswordField(participant)).toBe(false);
  });

  it('starts ticked on create and unticked with an empty password on edit', () => {
    expect(emptyUserValues()).toEqual({ name: '', username: '', password: '', change_password: true });
    expect(userValuesOf({ name: 'Ana', username: 'ana' })).toEqual({
      name: 'Ana',
      username: 'ana',
      password: '',
      change_password: false,
    });
  });
});

describe('toUserInput', () => {
  it('sends the screen type, and the password only when it is required', () => {
    const values = { name: 'Ana', username: 'ana', password: 'secreta-123', change_password: true };
    expect(toUserInput(values, judge)).toEqual({
      name: 'Ana',
      username: 'ana',
      password: 'secreta-123',
      types_users_id: 2,
    });
    expect(toUserInput({ ...values, change_password: false }, admin)).toEqual({
      name: 'Ana',
      username: 'ana',
      types_users_id: 1,
    });
    expect(toUserInput(values, participant)).toEqual({ name: 'Ana', username: 'ana', types_users_id: 3 });
  });
});

describe('userFormResolver', () => {
  const resolve = (type: 1 | 2 | 3, values: UserFormValues) =>
    userFormResolver(type)(values, undefined, options);

  it('requires name, username and, on create, the password of a judge', async () => {
    const result = await resolve(judge, emptyUserValues());
    expect(result.errors).toMatchObject({
      name: { message: 'Este campo es requerido' },
      username: { message: 'Este campo es requerido' },
      password: { message: 'Este campo es requerido' },
    });
  });

  it('accepts an edit without a password while the box is unticked, and requires one once ticked', async () => {
    const edit = userValuesOf({ name: 'Juez Uno', username: 'juez1' });
    expect((await resolve(judge, edit)).errors).toEqual({});
    expect((await resolve(judge, edit)).values).toEqual({
      name: 'Juez Uno',
      username: 'juez1',
      types_users_id: 2,
    });
    const ticked = await resolve(judge, { ...edit, change_password: true });
    expect(ticked.errors).toMatchObject({ password: { message: 'Este campo es requerido' } });
  });

  it('applies the shared password and username rules', async () => {
    const result = await resolve(admin, {
      name: 'Ana',
      username: 'ana lópez',
      password: 'corta',
      change_password: true,
    });
    expect(result.errors).toMatchObject({
      username: { message: 'Use solo letras, dígitos, punto, guion, guion bajo o @' },
      password: { message: PASSWORD_MESSAGES.tooShort },
    });
  });

  it('shows the password policy under the Password field: not the username, not a common one', async () => {
    const values = { name: 'Mtro. Ricardo Salas', username: 'rsalas', change_password: true };
    for (const [password, message] of [
      ['rsalas', PASSWORD_MESSAGES.sameAsUsername],
      ['clave-RSALAS-2026', PASSWORD_MESSAGES.containsUsername],
      ['contraseña123', PASSWORD_MESSAGES.common],
      ['1234567890', PASSWORD_MESSAGES.common],
    ] as const) {
      const result = await resolve(judge, { ...values, password });
      expect(result.errors).toEqual({ password: { type: 'validate', message } });
    }
    const good = await resolve(judge, { ...values, password: 'sol de marzo en zapopan' });
    expect(good.errors).toEqual({});
    expect(good.values).toEqual({
      name: 'Mtro. Ricardo Salas',
      username: 'rsalas',
      password: 'sol de marzo en zapopan',
      types_users_id: 2,
    });
  });

  it('asks a participant for name and username only', async () => {
    const result = await resolve(participant, { ...emptyUserValues(), name: 'Ana', username: 'ana' });
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({ name: 'Ana', username: 'ana', types_users_id: 3 });
  });
});
