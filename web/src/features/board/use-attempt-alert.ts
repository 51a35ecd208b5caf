import { useEffect } from 'react';
import { useBoardStore } from '../../stores/board-store';
import { playAlertTone, unlockAlertTone } from './alert-tone';
import { alertDue, attemptAlertFor } from './attempt-alert';

/**
 * While `on`, plays the "Alerta sonora" tone when a team's attempts grow on the live board (issue 14):
 * it watches the board store's changes (`attemptAlertFor`: frames only, never a snapshot) and plays at
 * most once a second (`alertDue`). Renders nothing and re-renders nothing: a store subscription.
 */
export function useAttemptAlert(on: boolean): void {
  useEffect(() => {
    if (!on) return;
    let lastAt: number | null = null;
    const unsubscribe = useBoardStore.subscribe((next, previous) => {
      if (!attemptAlertFor(previous, next)) return;
      const now = performance.now();
      if (!alertDue(lastAt, now)) return;
      lastAt = now;
      playAlertTone();
    });
    // After a reload with the switch on, the browser lets sound play only after the judge's first
    // click or key on the page.
    const unlock = () => unlockAlertTone();
    window.addEventListener('pointerdown', unlock, { once: true });
    window.addEventListener('keydown', unlock, { once: true });
    return () => {
      unsubscribe();
      window.removeEventListener('pointerdown', unlock);
      window.removeEventListener('keydown', unlock);
    };
  }, [on]);
}
