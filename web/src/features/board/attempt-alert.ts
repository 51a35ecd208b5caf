/**
 * When the judge board's "Alerta sonora" sounds: pure, so which changes of the board store
 * beep is unit-tested without a browser. `use-attempt-alert.ts` feeds it the store's changes.
 */
import { isAgentAlarm } from '@concurso/shared';
import type { BoardData } from '../../stores/board-state';

/** At most one sound in this many ms ("at most once per ~1 s"); a burst of attempts is one. */
export const ALERT_MIN_GAP_MS = 1000;

/**
 * Whether a change of the board store (`previous` → `next`) is something the judges should hear: a
 * team held before has more attempts now, or its agent just raised an alarm (the tamper alert,
 * or «Agente detenido sin reanudar»), and the change came from the push channel's frames.
 *
 * A snapshot never sounds: the first one, the refetch after every reconnect and the one after another
 * contest's activation bring what the judges already saw or missed while away, not a new attempt.
 * A snapshot is told from a frame by the contest: `applySnapshot` (stores/board-state.ts) puts the
 * snapshot's own contest object in the board, while `applyBoardEvents` keeps the held one; the unit
 * test drives both real functions, so a change there fails it. A team new to the board does not
 * sound either (it was not seen attempting anything).
 */
export function attemptAlertFor(previous: BoardData, next: BoardData): boolean {
  const reasons = alertReasons(previous, next);
  return reasons.attempts.length > 0 || reasons.alarm;
}

/** Why a change of the board sounds: the teams whose attempts grew, and whether an agent alarm rose. */
export interface AlertReasons {
  /** Ids of the held teams with more attempts now. */
  attempts: number[];
  /** A held team's agent just raised an alarm (`isAgentAlarm`). */
  alarm: boolean;
}

/**
 * The reasons behind {@link attemptAlertFor} (the same rules: frames only, held teams only), so the
 * hook can ring a burst of attempts once (`attemptBurstDue`, attempt-bursts.ts) while an agent's
 * alarm always rings.
 */
export function alertReasons(previous: BoardData, next: BoardData): AlertReasons {
  const reasons: AlertReasons = { attempts: [], alarm: false };
  if (next.teams === previous.teams || next.contest !== previous.contest) return reasons;
  for (const team of Object.values(next.teams)) {
    const before = previous.teams[team.id];
    if (before === undefined || before === team) continue;
    if (team.number_attempts > before.number_attempts) reasons.attempts.push(team.id);
    // An agent that fell silent during the contest (the tamper alert) sounds too, and so does
    // one stopped and not resumed within the window (the same weight: `isAgentAlarm`).
    if (isAgentAlarm(team.agent_alert) && team.agent_alert !== before.agent_alert) reasons.alarm = true;
  }
  return reasons;
}

/**
 * Whether a sound may play at `now` (ms, any monotonic clock) when the last one played at `lastAt`
 * (null: none yet): at least {@link ALERT_MIN_GAP_MS} apart.
 */
export function alertDue(lastAt: number | null, now: number): boolean {
  return lastAt === null || now - lastAt >= ALERT_MIN_GAP_MS;
}
