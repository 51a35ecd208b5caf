import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../api/api-error';
import { describeDeleteFailure, describeSaveFailure, saveFailureText } from './catalog-failures';

const http = (status: number, serverMessage: string | null, fieldErrors?: Record<string, string[]>) =>
  new ApiRequestError({ kind: 'http', status, serverMessage, fieldErrors });

describe('saveFailureText (docs/spec.md section 8, word for word)', () => {
  // The school and process texts are their own; the others are the generic text with each thing and its article.
  it.each([
    ['schools', 'create', 'Hubo un problema al registrar la escuela. Intente de nuevo.'],
    ['schools', 'update', 'Ocurrió un problema al actualizar la escuela. Inténtalo de nuevo.'],
    ['processes', 'create', 'Hubo un problema al registrar el proceso. Intente de nuevo.'],
    ['processes', 'update', 'Ocurrió un problema al actualizar el proceso. Inténtalo de nuevo.'],
    ['contests', 'create', 'Hubo un problema al registrar el concurso. Intente de nuevo.'],
    ['levels', 'update', 'Hubo un problema al actualizar el nivel. Intente de nuevo.'],
    ['departaments', 'create', 'Hubo un problema al registrar el departamento. Intente de nuevo.'],
    ['careers', 'update', 'Hubo un problema al actualizar la carrera. Intente de nuevo.'],
    ['coaches', 'create', 'Hubo un problema al registrar el coach. Intente de nuevo.'],
  ] as const)('%s %s: %s', (list, action, text) => {
    expect(saveFailureText(list, action)).toBe(text);
  });
});

describe('saveFailureText for teams, exercises and users', () => {
  it('uses the user texts on the three user screens', () => {
    for (const list of ['adminUsers', 'judgeUsers', 'participantUsers'] as const) {
      expect(saveFailureText(list, 'create')).toBe(
        'Hubo un problema al registrar el usuario. Intente de nuevo.',
      );
      expect(saveFailureText(list, 'update')).toBe(
        'Ocurrió un problema al actualizar el usuario. Inténtalo de nuevo.',
      );
    }
  });

  it('only logs a team or exercise creation failure (docs/spec.md section 8), and has update texts', () => {
    expect(saveFailureText('teams', 'create')).toBeNull();
    expect(saveFailureText('exercises', 'create')).toBeNull();
    expect(saveFailureText('teams', 'update')).toBe(
      'Hubo un problema al actualizar el equipo. Intente de nuevo.',
    );
    expect(saveFailureText('exercises', 'update')).toBe(
      'Ocurrió un problema al actualizar los ejercicios. Inténtalo de nuevo.',
    );
  });
});

describe('describeSaveFailure', () => {
  it('puts 422 messages under the form fields and warns with the docs/spec.md section 5 dialog', () => {
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
    expect(view.message?.message).toBe('Calendario no válido');
  });

  it('shows the server text of a 409 (duplicate) instead of the generic one', () => {
    const view = describeSaveFailure(http(409, 'El proceso Discord.exe ya existe.'), 'generic', ['name']);
    expect(view.message).toEqual({ title: 'Error', message: 'El proceso Discord.exe ya existe.' });
  });

  it('falls back to the docs/spec.md text for other failures', () => {
    expect(describeSaveFailure(http(500, 'Algo salió mal en el servidor.'), 'generic', []).message).toEqual({
      title: 'Error',
      message: 'generic',
    });
    expect(
      describeSaveFailure(new ApiRequestError({ kind: 'network', status: 0 }), 'generic', []).message
        ?.message,
    ).toBe('generic');
  });
});

describe('describeSaveFailure beyond duplicates', () => {
  it('shows the server text of a refused file (413, 415) and of a missing row (404)', () => {
    for (const [status, text] of [
      [413, 'El archivo supera el límite de 20 MB.'],
      [415, 'El archivo no es un PDF válido.'],
      [404, 'No se encontró el ejercicio.'],
    ] as const) {
      expect(describeSaveFailure(http(status, text), null, []).message).toEqual({
        title: 'Error',
        message: text,
      });
    }
  });

  it('shows the 422 "no contest yet" message of a team, whose field the form does not have', () => {
    const view = describeSaveFailure(
      http(422, 'No hay un concurso registrado todavía.', {
        contests_id: ['No hay un concurso registrado todavía.'],
      }),
      null,
      ['name', 'coaches_id', 'levels_id'],
    );
    expect(view.message).toEqual({
      title: 'Información',
      message: 'No hay un concurso registrado todavía.',
      buttonLabel: 'Listo!',
    });
  });

  it('shows nothing for a failure that is only logged, or for a cancelled upload', () => {
    expect(describeSaveFailure(http(500, 'Algo salió mal en el servidor.'), null, []).message).toBeNull();
    expect(
      describeSaveFailure(new DOMException('cancelado', 'AbortError'), 'generic', []).message,
    ).toBeNull();
  });

  it('maps server field names onto the form (a member row)', () => {
    const view = describeSaveFailure(
      http(422, 'Por favor llene todos los campos correctamente', {
        '1.code': ['El código se repite en la fila 1.'],
      }),
      'x',
      ['members.0.code', 'members.1.code'],
      (field) => `members.${field}`,
    );
    expect(view.fieldErrors).toEqual({ 'members.1.code': 'El código se repite en la fila 1.' });
  });
});

describe('describeDeleteFailure', () => {
  it('shows the server reason of a refusal', () => {
    expect(describeDeleteFailure(http(409, 'La escuela tiene departamentos registrados.'))).toEqual({
      title: 'Error',
      message: 'La escuela tiene departamentos registrados.',
    });
  });

  it('falls back to the docs/spec.md text without a reason, on a server error or without an answer', () => {
    const text = 'Ocurrió un problema al eliminar el dato. Inténtalo de nuevo.';
    expect(describeDeleteFailure(http(409, null)).message).toBe(text);
    expect(describeDeleteFailure(http(500, 'Algo salió mal en el servidor.')).message).toBe(text);
    expect(describeDeleteFailure(new ApiRequestError({ kind: 'network', status: 0 })).message).toBe(text);
  });
});
