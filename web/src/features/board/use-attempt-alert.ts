import { useEffect } from 'react';
import { useBoardStore } from '../../stores/board-store';
import { playAlertTone, unlockAlertTone } from './alert-tone';
import { alertDue, alertReasons } from './attempt-alert';
import { attemptBurstDue, type LastAttemptAt } from './attempt-bursts';

/**
 * While `on`, plays the "Alerta sonora" tone when a team's attempts grow on the live board:
 * it watches the board store's changes (`alertReasons`: frames only, never a snapshot) and plays at
 * most once a second (`alertDue`), and once per burst of a team's attempts (`attemptBurstDue`: a
 * restart loop's attempts seconds apart ring when the burst starts, not at each attempt). Renders nothing and re-renders nothing: a store subscription.
 */
export function useAttemptAlert(on: boolean): void {
  useEffect(() => {
    if (!on) return;
    let lastAt: number | null = null;
    const lastAttemptAt: LastAttemptAt = new Map();
    const unsubscribe = useBoardStore.subscribe((next, previous) => {
      const reasons = alertReasons(previous, next);
      const now = performance.now();
      // A restart loop's attempts, each within seconds of the one before, ring once for the burst.
      const newBurst = attemptBurstDue(lastAttemptAt, reasons.attempts, now);
      if (!newBurst && !reasons.alarm) return;
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
