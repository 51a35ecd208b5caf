/** A throttled action: {@link throttle}'s answer. */
export interface Throttled {
  /** Asks for the action: it runs now, or once at the end of the current interval. */
  request: () => void;
  /** Drops a pending run (the screen unmounts). */
  cancel: () => void;
}

/**
 * `run` at most once every `intervalMs` (ms), never dropping the last request: the first request runs
 * at once, requests within the interval after a run are gathered into one run at its end. The refetches
 * that follow the board's pushes go through it (`useRefetchOnBoardChange`: /bitacora at most once every
 * 2 s, the statistics every 5 s).
 */
export function throttle(run: () => void, intervalMs: number): Throttled {
  let lastRunAt = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    lastRunAt = Date.now();
    run();
  };
  return {
    request: () => {
      if (timer !== undefined) return;
      const wait = lastRunAt + intervalMs - Date.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel: () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
