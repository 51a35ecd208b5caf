import { messageFailureText, receiptState, type MessageRow, type ReceiptState } from '@concurso/shared';

/** One team's line under a sent message in the 'Mensajes' dialog. */
export interface ReceiptLine {
  teamId: number;
  state: ReceiptState;
  /** 'Los Punteros: visto', or 'no se pudo mostrar en Los Punteros (lab-05): sin sesión gráfica'. */
  text: string;
}

/** What needs the sender's eye first: could not be shown, not shown yet, shown, closed. */
const STATE_ORDER: Record<ReceiptState, number> = { falló: 0, pendiente: 1, entregado: 2, visto: 3 };

const collator = new Intl.Collator('es', { numeric: true, sensitivity: 'base' });

/**
 * The per-team receipts of a sent message (docs/design.md section 6a, messages): each target team's state
 * (`receiptState`: entregado / visto / falló / pendiente), a failure with its machine and reason
 * (`messageFailureText`), the failed first, then the pending, the shown and the closed, by team name.
 */
export function receiptLines(row: Pick<MessageRow, 'receipts'>): ReceiptLine[] {
  return row.receipts
    .map((receipt) => {
      const state = receiptState(receipt);
      return {
        teamId: receipt.team.id,
        name: receipt.team.name,
        state,
        text:
          state === 'falló'
            ? messageFailureText(receipt.team.name, receipt.failed_on, receipt.failure ?? '')
            : `${receipt.team.name}: ${state}`,
      };
    })
    .sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || collator.compare(a.name, b.name))
    .map(({ teamId, state, text }) => ({ teamId, state, text }));
}

/** The fold's title: 'Equipos (30)'. */
export function receiptLinesTitle(count: number): string {
  return `Equipos (${count})`;
}
