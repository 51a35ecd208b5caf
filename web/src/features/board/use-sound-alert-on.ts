import { useRememberedFlag } from './use-remembered-flag';

/** Where the browser remembers that the judge turned "Alerta sonora" on ('1'); off otherwise. */
const SOUND_ALERT_KEY = 'tablero.alertaSonora';

/**
 * Whether the judge board's "Alerta sonora" is on: off by default, remembered per browser
 * like 'Ocultar gráficas'. Answers the state and its setter.
 */
export function useSoundAlertOn(): [boolean, (on: boolean) => void] {
  return useRememberedFlag(SOUND_ALERT_KEY, false);
}
