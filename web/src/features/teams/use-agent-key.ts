import { useCallback, useState } from 'react';
import { agentRoutes, type TeamRow } from '@concurso/shared';
import { callApi } from '../../api/call-api';
import { catalogListKey } from '../../api/queries/catalog-queries';
import { useInvalidatingMutation } from '../../api/queries/use-invalidating-mutation';
import { confirmedAction } from '../../catalog-screen/confirmed-action';
import type { QuestionView } from '../../stores/feedback-store';

/** A key just generated, shown once. */
export interface GeneratedAgentKey {
  team: TeamRow;
  key: string;
  /** The server's `PUBLIC_URL` (an origin), null when it has none. */
  publicUrl: string | null;
}

/** The 'Clave del agente' flow and the key it shows. */
export interface AgentKeyFlow {
  /** The last key generated; kept while its dialog closes, then forgotten. */
  shown: GeneratedAgentKey | null;
  open: boolean;
  generate: (team: TeamRow) => Promise<void>;
  close: () => void;
  /** After the closing animation: the key leaves memory. */
  forget: () => void;
  /**
   * The server address the admin typed in the dialog, kept for the next keys of this visit (thirty
   * teams, one address); null until they type one.
   */
  serverText: string | null;
  setServerText: (text: string) => void;
}

/** `POST /api/generateAgentKey/{teamId}` (`agentRoutes.generateKey`): the new key, answered once. */
const generateKey = (team: TeamRow) => callApi(agentRoutes.generateKey, { params: { teamId: team.id } });
// The server announces no catalogue change for a key: the teams list refetches so `has_agent_key` is current.
const teamsKey = () => catalogListKey('teams');

/** The question before replacing a team's key: the old key stops working and its agent disconnects. */
function replaceKeyQuestion(teamName: string): QuestionView {
  return {
    title: '¿Generar una nueva clave del agente?',
    message: `El equipo ${teamName} ya tiene una clave. Si genera otra, la anterior dejará de funcionar y el agente que la usa se desconectará hasta que se configure con la nueva.`,
    confirmLabel: 'Sí, generar',
    cancelLabel: 'Cancelar',
  };
}

/**
 * 'Clave del agente' (docs/design.md section 6): asks first when the team already has a key, then
 * `POST /api/generateAgentKey/{teamId}` under 'Procesando…' (a mutation) and shows the key once; the
 * teams list refetches so the row knows it has a key. A failure shows the server's message. The
 * answer also carries the server's `PUBLIC_URL` for the install commands.
 */
export function useAgentKey(): AgentKeyFlow {
  const [shown, setShown] = useState<GeneratedAgentKey | null>(null);
  const [open, setOpen] = useState(false);
  const [serverText, setServerText] = useState<string | null>(null);
  const generateAgentKey = useInvalidatingMutation(generateKey, teamsKey);

  const generate = useCallback(
    async (team: TeamRow) => {
      const answer = await confirmedAction({
        question: team.has_agent_key ? replaceKeyQuestion(team.name) : null,
        run: () => generateAgentKey(team),
        what: `generar la clave del agente (equipo ${team.id})`,
      });
      if (!answer) return;
      setShown({ team, key: answer.data.key, publicUrl: answer.data.public_url });
      setOpen(true);
    },
    [generateAgentKey],
  );

  const close = useCallback(() => setOpen(false), []);
  const forget = useCallback(() => setShown(null), []);
  return { shown, open, generate, close, forget, serverText, setServerText };
}
