import { useCallback, useState } from 'react';

/** Reads `key`'s remembered choice ('1' on, '0' off), else `byDefault`; storage refused counts as the default. */
function readFlag(key: string, byDefault: boolean): boolean {
  try {
    const stored = localStorage.getItem(key);
    return stored === null ? byDefault : stored === '1';
  } catch {
    return byDefault;
  }
}

/**
 * An on/off choice of the board remembered per browser in localStorage under `key` ('1' / '0'), so it
 * holds at the next visit: 'Ocultar gráficas' (`stats/use-charts-open.ts`) and "Alerta sonora"
 * (`use-sound-alert-on.ts`). Answers the state and its setter; when the browser refuses storage the
 * choice still holds until the page is left.
 */
export function useRememberedFlag(key: string, byDefault: boolean): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => readFlag(key, byDefault));
  const set = useCallback(
    (next: boolean) => {
      try {
        localStorage.setItem(key, next ? '1' : '0');
      } catch {
        // Not remembered: the choice still holds until the page is left.
      }
      setOn(next);
    },
    [key],
  );
  return [on, set];
}
