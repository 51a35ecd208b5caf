import { useCallback } from 'react';
import { useRememberedFlag } from '../use-remembered-flag';

/** Where the browser remembers that a user hid the charts ('0'), so they stay hidden at the next visit. */
const CHARTS_OPEN_KEY = 'estadisticas.graficas';

/**
 * Whether /home's charts are shown, remembered in this browser ('Ocultar gráficas' / 'Mostrar
 * gráficas'). Shown by default; their library still loads only when the panel comes into view
 * (`useNearViewport`), so the board's first paint does not wait for it.
 */
export function useChartsOpen(): [boolean, () => void] {
  const [open, setOpen] = useRememberedFlag(CHARTS_OPEN_KEY, true);
  const toggle = useCallback(() => setOpen(!open), [open, setOpen]);
  return [open, toggle];
}
