import { useCallback, useState } from 'react';
import { MESSAGES, type BoardTeam } from '@concurso/shared';
import { toggleTeamStatus } from '../../api/board-api';
import { toaster } from '../../ui/toaster';
import { useBoardStore } from '../../stores/board-store';

/** State and actions of the block/unblock flow (docs/spec.md section 4). */
export interface TeamStatusToggle {
  /** True while the confirmation question is open. */
  asking: boolean;
  /** The team last asked about (kept after the question closes, so its closing animation keeps the text). */
  target: BoardTeam | null;
  /** True while the request runs (the progress dialog). */
  processing: boolean;
  /** The failure text to show; null when none. */
  error: string | null;
  request: (team: BoardTeam) => void;
  cancel: () => void;
  confirm: () => Promise<void>;
  dismissError: () => void;
}

/**
 * The block/unblock flow: ask '¿Desea cambiar el estatus del equipo?', call `descalificarTeam` under a
 * progress dialog, then apply the answered row (the push event brings it to every other screen).
 */
export function useTeamStatusToggle(): TeamStatusToggle {
  const [asking, setAsking] = useState(false);
  const [target, setTarget] = useState<BoardTeam | null>(null);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const request = useCallback((team: BoardTeam) => {
    setTarget(team);
    setAsking(true);
  }, []);
  const cancel = useCallback(() => setAsking(false), []);
  const dismissError = useCallback(() => setError(null), []);

  const confirm = useCallback(async () => {
    if (!asking || !target) return;
    const teamId = target.id;
    setAsking(false);
    setProcessing(true);
    try {
      const answer = await toggleTeamStatus(teamId);
      if (answer.data) useBoardStore.getState().applyTeam(answer.data);
      toaster.create({
        type: 'success',
        title: MESSAGES.correct,
        description: answer.message || MESSAGES.processed,
        duration: 2500,
      });
    } catch (failure) {
      console.error('No se pudo cambiar el estatus del equipo', failure);
      setError(MESSAGES.statusChangeFailed);
    } finally {
      setProcessing(false);
    }
  }, [asking, target]);

  return { asking, target, processing, error, request, cancel, confirm, dismissError };
}
