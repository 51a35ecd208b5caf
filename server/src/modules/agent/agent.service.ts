import type { EntityManager } from '@mikro-orm/mysql';
import type { BoardTeam } from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { boardTeam, boardTeams } from '../board/index.js';
import { markAgentSeen, markAgentsOffline } from '../teams/index.js';
import { lockAgentOnline, lockSilentAgents, touchOnlineAgent } from './agent.repository.js';

/**
 * Records a heartbeat: `agent_last_seen` = now. When the boards last heard the agent was offline,
 * marks it online, bumps `version` and returns the row to push, so every board shows it at once.
 */
export async function recordHeartbeat(em: EntityManager, teamId: number): Promise<BoardTeam | null> {
  // The usual case, an agent the boards already show online, is one statement without a transaction;
  // only when it changed no row (offline, or the same millisecond) does the locked transition run.
  if (await touchOnlineAgent(em, teamId, new Date())) return null;
  return transaction(em, async (tem) => {
    const wasOnline = await lockAgentOnline(tem, teamId);
    await markAgentSeen(tem, teamId, new Date(), !wasOnline);
    return wasOnline ? null : boardTeam(tem, teamId);
  });
}

/**
 * Marks offline every team whose agent has been silent for `offlineAfterMs` while the boards think it
 * online, bumping `version`; answers their board rows to push. Rows are locked, so when several server
 * processes sweep at once each change is announced once.
 */
export async function sweepSilentAgents(em: EntityManager, offlineAfterMs: number): Promise<BoardTeam[]> {
  return transaction(em, async (tem) => {
    const ids = await lockSilentAgents(tem, new Date(Date.now() - offlineAfterMs));
    if (ids.length === 0) return [];
    await markAgentsOffline(tem, ids);
    return boardTeams(tem, ids);
  });
}
