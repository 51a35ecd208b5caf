import { useEffect, useState } from 'react';
import type { BoardTeam } from '@concurso/shared';
import { useBoardStore } from '../../stores/board-store';

/**
 * The board store's teams, re-read at most once every `intervalMs` (ms) and always ending on the
 * latest. It subscribes outside React, so a burst of a hundred events a second costs the caller a
 * few renders, not a hundred: the projector re-sorts thousands of rows from it.
 */
export function useThrottledBoardTeams(intervalMs: number): Readonly<Record<number, BoardTeam>> {
  const [teams, setTeams] = useState(() => useBoardStore.getState().teams);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastShownAt = 0;
    const show = () => {
      timer = undefined;
      lastShownAt = Date.now();
      setTeams(useBoardStore.getState().teams);
    };
    show();
    const unsubscribe = useBoardStore.subscribe((state, previous) => {
      if (state.teams === previous.teams || timer !== undefined) return;
      timer = setTimeout(show, Math.max(0, lastShownAt + intervalMs - Date.now()));
    });
    return () => {
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [intervalMs]);
  return teams;
}
