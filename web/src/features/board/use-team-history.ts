import { useCallback, useState } from 'react';
import type { BoardTeam } from '@concurso/shared';

/** State and actions of the board's 'Historial' dialog (issue 13). */
export interface TeamHistoryState {
  /** The team last shown (kept after closing, so the closing animation keeps its title). */
  team: BoardTeam | null;
  open: boolean;
  /** Opens the dialog on `team` (stable: the memoized rows keep it). */
  show: (team: BoardTeam) => void;
  close: () => void;
}

/** Which team's history the board shows, if any. */
export function useTeamHistory(): TeamHistoryState {
  const [team, setTeam] = useState<BoardTeam | null>(null);
  const [open, setOpen] = useState(false);
  const show = useCallback((next: BoardTeam) => {
    setTeam(next);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  return { team, open, show, close };
}
