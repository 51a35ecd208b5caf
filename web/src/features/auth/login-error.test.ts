import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@concurso/shared';
import { ApiRequestError } from '../../api/api-error';
import { describeLoginError } from './login-error';

const http = (status: number, serverMessage: string | null, fieldErrors?: Record<string, string[]>) =>
  new ApiRequestError({ kind: 'http', status, serverMessage, fieldErrors });

describe('describeLoginError', () => {
  it('401 shows the server text with "Intentar de nuevo"', () => {
    const view = describeLoginError(http(401, 'Usuario o contraseña incorrectos!'));
    expect(view.message).toBe('Usuario o contraseña incorrectos!');
    expect(view.buttonLabel).toBe('Intentar de nuevo');
  });

  it('401 without a server text falls back to the spec text', () => {
    expect(describeLoginError(http(401, null)).message).toBe(MESSAGES.loginInvalid);
  });

  it('403 and 429 show the server message', () => {
    expect(describeLoginError(http(403, 'Sin acceso para participantes')).message).toBe(
      'Sin acceso para participantes',
    );
    expect(describeLoginError(http(429, 'Demasiados intentos')).message).toBe('Demasiados intentos');
  });

  it('422 puts the first message of each field under its input', () => {
    const view = describeLoginError(
      http(422, MESSAGES.validation, { username: ['Este campo es requerido', 'otro'], password: ['Corta'] }),
    );
    expect(view.fieldErrors).toEqual({ username: 'Este campo es requerido', password: 'Corta' });
    expect(view.message).toBe(MESSAGES.validation);
  });

  it('no response shows the connection error', () => {
    const view = describeLoginError(new ApiRequestError({ kind: 'network', status: 0 }));
    expect(view.title).toBe(MESSAGES.connectionErrorTitle);
    expect(view.message).toBe(MESSAGES.connectionError);
  });
});
