/**
 * Attempt bursts: a restart loop of one blocked program makes a run of attempts seconds apart. The
 * agent still reports each start (one start, one attempt: agent/src/README.md), but the judges read
 * the run as one thing: a line «12 intentos en 30 s» in the team's 'Historial', and one tone on the
 * board (attempt-alert.ts). Pure, tested in Node.
 */
import type { AttemptLogRow } from '@concurso/shared';

/**
 * Longest gap between two attempts of one burst (ms): a program restarted within 10 s of being
 * ended (the agent ends each start within about a second) is the same run.
 */
export const ATTEMPT_BURST_GAP_MS = 10_000;

/** Fewest attempts a burst has (two in a row may be a contestant trying twice by hand). */
const ATTEMPT_BURST_MIN = 3;

/**
 * «12 intentos en 30 s»: `count` attempts over `spanMs` (first to last, ms), in whole seconds rounded
 * up (at least 1 s), or whole minutes from 2 min on.
 */
export function attemptBurstText(count: number, spanMs: number): string {
  const seconds = Math.max(1, Math.ceil(spanMs / 1000));
  const span = seconds >= 120 ? `${Math.round(seconds / 60)} min` : `${seconds} s`;
  return `${count} intentos en ${span}`;
}

/**
 * The bursts of a team's attempts (`GET /api/teamAttemptsLog`, any order): runs of the same blocked
 * program (`process`) whose attempts are at most `ATTEMPT_BURST_GAP_MS` apart on the machine's clock
 * (`occurred_at`), with at least `ATTEMPT_BURST_MIN` attempts. Answers the burst's line by the id of
 * its newest attempt (where the dialog shows it); the other rows have none.
 */
export function attemptBursts(rows: readonly AttemptLogRow[]): Map<number, string> {
  const byProcess = new Map<string, { id: number; at: number }[]>();
  for (const row of rows) {
    const at = Date.parse(row.occurred_at);
    if (Number.isNaN(at)) continue;
    const list = byProcess.get(row.process) ?? [];
    list.push({ id: row.id, at });
    byProcess.set(row.process, list);
  }
  const result = new Map<number, string>();
  for (const list of byProcess.values()) {
    list.sort((a, b) => a.at - b.at || a.id - b.id);
    let start = 0;
    for (let i = 1; i <= list.length; i++) {
      if (i < list.length && list[i]!.at - list[i - 1]!.at <= ATTEMPT_BURST_GAP_MS) continue;
      const count = i - start;
      if (count >= ATTEMPT_BURST_MIN)
        result.set(list[i - 1]!.id, attemptBurstText(count, list[i - 1]!.at - list[start]!.at));
      start = i;
    }
  }
  return result;
}

/**
 * Per team, when its last attempt reached the board (ms, any monotonic clock): what `attemptBurstDue`
 * keeps between two frames.
 */
export type LastAttemptAt = Map<number, number>;

/**
 * Whether the attempts of `teams` that reached the board at `now` (ms) start a burst, so the tone
 * rings: a team with no attempt in the last `ATTEMPT_BURST_GAP_MS`. A restart loop's next attempts,
 * each within the gap of the one before, ring nothing more. Records `now` for every team in `last`.
 */
export function attemptBurstDue(last: LastAttemptAt, teams: readonly number[], now: number): boolean {
  let due = false;
  for (const team of teams) {
    const before = last.get(team);
    if (before === undefined || now - before > ATTEMPT_BURST_GAP_MS) due = true;
    last.set(team, now);
  }
  return due;
}
