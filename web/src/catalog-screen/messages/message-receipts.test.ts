import { describe, expect, it } from 'vitest';
import { receiptsText, type MessageRow } from '@concurso/shared';
import { receiptLines } from './message-receipts';

const receipt = (
  id: number,
  name: string,
  state: Partial<MessageRow['receipts'][number]> = {},
): MessageRow['receipts'][number] => ({
  team: { id, name },
  delivered_at: null,
  seen_at: null,
  failed_at: null,
  failure: null,
  failed_on: null,
  ...state,
});

describe('the per-team receipts of a sent message', () => {
  const at = '2026-11-02T10:00:00.000Z';
  const receipts = [
    receipt(1, 'Águilas', { delivered_at: at, seen_at: at }),
    receipt(2, 'Búhos', { delivered_at: at }),
    receipt(3, 'Cóndores'),
    receipt(4, 'Delfines', { failed_at: at, failure: 'sin sesión gráfica', failed_on: 'lab-05' }),
    // Failed on one machine, shown since (another machine, or a retry): shown.
    receipt(5, 'Elefantes', { delivered_at: at, failed_at: at, failure: 'zenity no está instalado' }),
    receipt(6, 'Focas', { failed_at: at, failure: 'la ventana se cerró al abrirse (código 255)' }),
  ];

  it('lists each team as falló (with the machine and why), pendiente, entregado or visto, problems first', () => {
    expect(receiptLines({ receipts }).map((line) => [line.teamId, line.state, line.text])).toEqual([
      [4, 'falló', 'no se pudo mostrar en Delfines (lab-05): sin sesión gráfica'],
      [6, 'falló', 'no se pudo mostrar en Focas: la ventana se cerró al abrirse (código 255)'],
      [3, 'pendiente', 'Cóndores: pendiente'],
      [2, 'entregado', 'Búhos: entregado'],
      [5, 'entregado', 'Elefantes: entregado'],
      [1, 'visto', 'Águilas: visto'],
    ]);
  });

  it('keeps the summary line and adds the failed count only when some failed', () => {
    expect(receiptsText({ teams: 6, delivered: 3, seen: 1, failed: 2 })).toBe(
      'entregado 3/6, visto 1/6, falló 2',
    );
    expect(receiptsText({ teams: 1, delivered: 1, seen: 0, failed: 0 })).toBe('entregado 1/1, visto 0/1');
  });
});
