import { useCallback, useState } from 'react';

/** Where the browser remembers that a user hid the charts ('0'), so they stay hidden at the next visit. */
export const CHARTS_OPEN_KEY = 'estadisticas.graficas';

/** Reads the remembered choice: shown unless this browser hid them; storage refused counts as shown. */
function readOpen(): boolean {
  try {
    return localStorage.getItem(CHARTS_OPEN_KEY) !== '0';
  } catch {
    return true;
  }
}

/**
 * Whether /home's charts are shown, remembered in this browser ('Ocultar gráficas' / 'Mostrar
 * gráficas'). Shown by default; their library still loads only when the panel comes into view
 * (`useNearViewport`), so the board's first paint does not wait for it (issue 13).
 */
export function useChartsOpen(): [boolean, () => void] {
  const [open, setOpen] = useState(readOpen);
  const toggle = useCallback(() => {
    setOpen((was) => {
      try {
        localStorage.setItem(CHARTS_OPEN_KEY, was ? '0' : '1');
      } catch {
        // Not remembered: the choice still holds until the page is left.
      }
      return !was;
    });
  }, []);
  return [open, toggle];
}
