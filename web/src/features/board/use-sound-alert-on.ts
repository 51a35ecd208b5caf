import { useCallback, useState } from 'react';

/** Where the browser remembers that the judge turned "Alerta sonora" on ('1'); off otherwise. */
export const SOUND_ALERT_KEY = 'tablero.alertaSonora';

/** Reads the remembered choice: off unless this browser turned it on; storage refused counts as off. */
function readOn(): boolean {
  try {
    return localStorage.getItem(SOUND_ALERT_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * Whether the judge board's "Alerta sonora" is on (issue 14): off by default, remembered per browser
 * like 'Ocultar gráficas' (`stats/use-charts-open.ts`). Answers the state and its setter.
 */
export function useSoundAlertOn(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(readOn);
  const set = useCallback((next: boolean) => {
    try {
      localStorage.setItem(SOUND_ALERT_KEY, next ? '1' : '0');
    } catch {
      // Not remembered: the choice still holds until the page is left.
    }
    setOn(next);
  }, []);
  return [on, set];
}
