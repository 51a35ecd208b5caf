import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../api/api-error';
import { describeDeleteFailure, describeSaveFailure, saveFailureText } from './catalog-failures';

const http = (status: number, serverMessage: string | null, fieldErrors?: Record<string, string[]>) =>
  new ApiRequestError({ kind: 'http', status, serverMessage, fieldErrors });

describe('saveFailureText (SPEC.md section 8, word for word)', () => {
  it('uses the school and process texts', () => {
    expect(saveFailureText('schools', 'create')).toBe(
      'Hubo un problema al registrar la escuela. Intente de nuevo.',
    );
    expect(saveFailureText('schools', 'update')).toBe(
      'Ocurrió un problema al actualizar la escuela. Inténtalo de nuevo.',
    );
    expect(saveFailureText('processes', 'create')).toBe(
      'Hubo un problema al registrar el proceso. Intente de nuevo.',
    );
    expect(saveFailureText('processes', 'update')).toBe(
      'Ocurrió un problema al actualizar el proceso. Inténtalo de nuevo.',
    );
  });

  it('uses the generic text with each thing and its article', () => {
    expect(saveFailureText('contests', 'create')).toBe(
      'Hubo un problema al registrar el concurso. Intente de nuevo.',
    );
    expect(saveFailureText('levels', 'update')).toBe(
      'Hubo un problema al actualizar el nivel. Intente de nuevo.',
    );
    expect(saveFailureText('departaments', 'create')).toBe(
      'Hubo un problema al registrar el departamento. Intente de nuevo.',
    );
    expect(saveFailureText('careers', 'update')).toBe(
      'Hubo un problema al actualizar la carrera. Intente de nuevo.',
    );
    expect(saveFailureText('coaches', 'create')).toBe(
      'Hubo un problema al registrar el coach. Intente de nuevo.',
    );
  });
});

describe('describeSaveFailure', () => {
  it('puts 422 messages under the form fields and warns with the SPEC section 5 dialog', () => {
    const view = describeSaveFailure(
      http(422, 'Datos inválidos', { name: ['Este campo es requerido', 'otra'] }),
      'x',
      ['name'],
    );
    expect(view.fieldErrors).toEqual({ name: 'Este campo es requerido' });
    expect(view.message).toEqual({
      title: 'Información',
      message: 'Por favor llene todos los campos correctamente',
      buttonLabel: 'Listo!',
    });
  });

  it('shows the message of a field the form does not have', () => {
    const view = describeSaveFailure(
      http(422, 'Datos inválidos', { calendar: ['Calendario no válido'] }),
      'x',
      ['date'],
    );
    expect(view.fieldErrors).toEqual({});
    expect(view.message.message).toBe('Calendario no válido');
  });

  it('shows the server text of a 409 (duplicate) instead of the generic one', () => {
    const view = describeSaveFailure(http(409, 'El proceso Discord.exe ya existe.'), 'generic', ['name']);
    expect(view.message).toEqual({ title: 'Error', message: 'El proceso Discord.exe ya existe.' });
  });

  it('falls back to the SPEC text for other failures', () => {
    expect(describeSaveFailure(http(500, 'Algo salió mal en el servidor.'), 'generic', []).message).toEqual({
      title: 'Error',
      message: 'generic',
    });
    expect(
      describeSaveFailure(new ApiRequestError({ kind: 'network', status: 0 }), 'generic', []).message.message,
    ).toBe('generic');
  });
});

describe('describeDeleteFailure', () => {
  it('shows the server reason of a refusal', () => {
    expect(describeDeleteFailure(http(409, 'La escuela tiene departamentos registrados.'))).toEqual({
      title: 'Error',
      message: 'La escuela tiene departamentos registrados.',
    });
  });

  it('falls back to the SPEC text without a reason, on a server error or without an answer', () => {
    const text = 'Ocurrió un problema al eliminar el dato. Inténtalo de nuevo.';
    expect(describeDeleteFailure(http(409, null)).message).toBe(text);
    expect(describeDeleteFailure(http(500, 'Algo salió mal en el servidor.')).message).toBe(text);
    expect(describeDeleteFailure(new ApiRequestError({ kind: 'network', status: 0 })).message).toBe(text);
  });
});
