/**
 * Deadlines of the journeys with real agents (messages, observed processes) on a loaded machine: each
 * step waits on the product's state, for as long as its loaded worst case, never for a fixed time.
 */

/**
 * Longest wait for an agent's step on a loaded machine (ms): a scan, a kill, an attempt delivered, a config
 * pushed, a message pushed and its window opened (zenity starting on Xvfb), a receipt back on the judge's
 * screen. Each takes about a second alone; in a full run (load average 12-14 on 2 cores) a step took up to
 * 20 s, so the deadline is that worst case with room.
 */
export const AGENT_STEP_MS = 45_000;

/**
 * Longest wait for the browser's side of a step on a loaded machine (ms): a screen's first load, a
 * refetch (the observed screen refetches every 5 s), a dialog. Loading the app took up to 50 s in a
 * loaded run.
 */
export const SCREEN_MS = 60_000;
