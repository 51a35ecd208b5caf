import { describe, expect, it } from 'vitest';
import { bodyMessages, refusedIndexes } from '../src/refusals.js';

describe('refusedIndexes', () => {
  it('maps attempts.<index>.<field> keys to the indexes of the batch, with their messages', () => {
    const errors = {
      'attempts.3.occurred_at': ['occurred_at: la fecha está más de un día adelante del reloj del servidor'],
      'attempts.0.process': ['Este campo es obligatorio'],
      'attempts.0.event_id': ['event_id: entre 8 y 64 caracteres', 'Este campo es obligatorio'],
      'attempts.7': ['Se esperaba un objeto'],
    };
    expect(refusedIndexes(errors, 10)).toEqual(
      new Map([
        [3, ['occurred_at: la fecha está más de un día adelante del reloj del servidor']],
        [0, ['Este campo es obligatorio', 'event_id: entre 8 y 64 caracteres']],
        [7, ['Se esperaba un objeto']],
      ]),
    );
  });

  it('names no attempt for body-level keys, other fields, indexes outside the batch or odd values', () => {
    expect(
      refusedIndexes({ _: ['Datos no válidos'], attempts: ['Máximo 500 intentos por envío'] }, 5).size,
    ).toBe(0);
    expect(refusedIndexes({ 'attempts.5.occurred_at': ['x'], 'attempts.-1.x': ['x'] }, 5).size).toBe(0);
    expect(
      refusedIndexes({ 'attemptsX.1': ['x'], 'otros.1.campo': ['x'], 'attempts.1x': ['x'] }, 5).size,
    ).toBe(0);
    for (const errors of [undefined, null, 'texto', 3, ['attempts.0.process']]) {
      expect(refusedIndexes(errors, 5).size).toBe(0);
    }
  });

  it('keeps an attempt named without usable messages (the caller gives a reason), and a lone string', () => {
    expect(refusedIndexes({ 'attempts.1.process': [3, ''], 'attempts.2.process': 'no válido' }, 3)).toEqual(
      new Map([
        [1, []],
        [2, ['no válido']],
      ]),
    );
  });
});

describe('bodyMessages', () => {
  it('answers the messages not about one attempt, without repeats', () => {
    expect(
      bodyMessages({
        _: ['La solicitud no es válida.'],
        attempts: ['Máximo 500 intentos por envío', 'La solicitud no es válida.'],
        'attempts.0.process': ['Este campo es obligatorio'],
      }),
    ).toEqual(['La solicitud no es válida.', 'Máximo 500 intentos por envío']);
    expect(bodyMessages(undefined)).toEqual([]);
  });
});
