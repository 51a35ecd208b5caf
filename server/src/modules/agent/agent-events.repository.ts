import type { EntityManager } from '@mikro-orm/mysql';
import type { AgentEventKind } from '@concurso/shared';
import { Contest } from '../contests/index.js';
import { Team } from '../teams/index.js';
import { appendRowToChain } from '../chain/index.js';
import { AgentEvent } from './agent-event.entity.js';

/*
 * The agents' log, `agent_events` (docs/design.md section 6): one row per change of a team's agent or
 * one of its machines, through the EntityManager (no hot path: a change, not a heartbeat).
 */

/**
 * Adds one event to the log of a team's agent or one of its machines, chained to its contest's log
 * (modules/chain/README.md), in the caller's transaction (after the team row's lock, when it takes one).
 */
export async function recordAgentEvent(
  em: EntityManager,
  event: {
    contestId: number;
    teamId: number;
    kind: AgentEventKind;
    at: Date;
    lastSeen: Date | null;
    silenceMs?: number;
    /** The machine it is about (presence per machine); none for a team's agent that names none. */
    hostname?: string | null;
  },
): Promise<void> {
  const row = em.create(AgentEvent, {
    hostname: event.hostname ?? null,
    contest: em.getReference(Contest, event.contestId),
    team: em.getReference(Team, event.teamId),
    kind: event.kind,
    at: event.at,
    lastSeen: event.lastSeen,
    silenceMs: event.silenceMs ?? null,
  });
  await em.flush();
  await appendRowToChain(em, 'agente', row.id);
}
