import { useCallback, useState } from 'react';

/** Which of a screen's row dialogs is open, and for which row. */
export interface RowDialog<TRow, TKind extends string> {
  /** The row last shown: kept while its dialog closes, so the dialog's text does not vanish. */
  row: TRow | null;
  /** The dialog open now; null when none. */
  open: TKind | null;
  show: (kind: TKind, row: TRow) => void;
  close: () => void;
}

/** The state of the dialogs a row button opens ('Ver procesos', 'Ver integrantes'…), one at a time. */
export function useRowDialog<TRow, TKind extends string>(): RowDialog<TRow, TKind> {
  const [state, setState] = useState<{ row: TRow | null; open: TKind | null }>({ row: null, open: null });
  const show = useCallback((open: TKind, row: TRow) => setState({ row, open }), []);
  const close = useCallback(() => setState((previous) => ({ ...previous, open: null })), []);
  return { row: state.row, open: state.open, show, close };
}
