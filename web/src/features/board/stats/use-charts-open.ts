import { useCallback, useState } from 'react';

/** Where the browser remembers that the charts were shown (so they stay open at the next visit). */
export const CHARTS_OPEN_KEY = 'estadisticas.graficas';

/** Reads the remembered choice; storage refused (private mode, policies) counts as closed. */
function readOpen(): boolean {
  try {
    return localStorage.getItem(CHARTS_OPEN_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * Whether /home's charts are shown, remembered in this browser. Closed until a user opens them once:
 * the charts' library is loaded only then, so a first visit's JavaScript stays the board's (issue 13:
 * under 300 KB gzip).
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
