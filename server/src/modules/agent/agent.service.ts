import type { EntityManager } from '@mikro-orm/mysql';
import type { BoardTeam } from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { boardTeam, boardTeams } from '../board/index.js';
import { activeContest } from '../contests/index.js';
import { markAgentSeen, markAgentsOffline } from '../teams/index.js';
import {
  lockAgentPresence,
  lockSilentAgents,
  recordAgentEvent,
  touchOnlineAgent,
} from './agent.repository.js';

/**
 * Records a heartbeat: `agent_last_seen` = now. When the boards last heard the agent was offline,
 * marks it online (clearing its alert), bumps `version` and returns the row to push, so every board
 * shows it at once. An agent back after an alert of the active contest (issue 24: it fell silent or was
 * stopped) gets `en_linea` in its log, with how long it was quiet.
 */
export async function recordHeartbeat(em: EntityManager, teamId: number): Promise<BoardTeam | null> {
  // The usual case, an agent the boards already show online, is one statement without a transaction;
  // only when it changed no row (offline, or the same millisecond) does the locked transition run.
  if (await touchOnlineAgent(em, teamId, new Date())) return null;
  return transaction(em, async (tem) => {
    const before = await lockAgentPresence(tem, teamId);
    if (!before) return null;
    const now = new Date();
    await markAgentSeen(tem, teamId, now, !before.online);
    if (before.online) return null;
    if (before.alert && (await activeContest(tem))?.id === before.contestId) {
      await recordAgentEvent(tem, {
        contestId: before.contestId,
        teamId,
        kind: 'en_linea',
        at: now,
        lastSeen: before.lastSeen,
        silenceMs: before.lastSeen ? Math.max(0, now.getTime() - before.lastSeen.getTime()) : undefined,
      });
    }
    return boardTeam(tem, teamId);
  });
}

/**
 * Marks offline every team whose agent has been silent for `offlineAfterMs` while the boards think it
 * online, bumping `version`; answers their board rows to push. Rows are locked, so when several server
 * processes sweep at once each change is announced once. Teams of the active contest get the tamper
 * alert (issue 24, DESIGN.md section 6a): `sin_senal` on the boards and in their agent's log, with the
 * last time it was seen; others only go offline.
 */
export async function sweepSilentAgents(em: EntityManager, offlineAfterMs: number): Promise<BoardTeam[]> {
  return transaction(em, async (tem) => {
    const silent = await lockSilentAgents(tem, new Date(Date.now() - offlineAfterMs));
    if (silent.length === 0) return [];
    const activeId = (await activeContest(tem))?.id;
    const alarmed = silent.filter((agent) => agent.contestId === activeId);
    const quiet = silent.filter((agent) => agent.contestId !== activeId);
    await markAgentsOffline(
      tem,
      alarmed.map((agent) => agent.teamId),
      'sin_senal',
    );
    await markAgentsOffline(
      tem,
      quiet.map((agent) => agent.teamId),
    );
    const now = new Date();
    for (const agent of alarmed) {
      await recordAgentEvent(tem, {
        contestId: agent.contestId,
        teamId: agent.teamId,
        kind: 'sin_senal',
        at: now,
        lastSeen: agent.lastSeen,
      });
    }
    return boardTeams(
      tem,
      silent.map((agent) => agent.teamId),
    );
  });
}

/**
 * The agent of team `teamId` says it is being stopped the documented way (issue 24): the boards show
 * it offline at once, and during the active contest with the `detenido` alert and the log entry
 * `detenido` (its silence then raises no `sin_senal`). Answers the row to push, or null when the
 * boards already showed it offline.
 */
export async function recordAgentStopped(em: EntityManager, teamId: number): Promise<BoardTeam | null> {
  return transaction(em, async (tem) => {
    const before = await lockAgentPresence(tem, teamId);
    if (!before?.online) return null;
    const active = (await activeContest(tem))?.id === before.contestId;
    await markAgentsOffline(tem, [teamId], active ? 'detenido' : null);
    if (active) {
      await recordAgentEvent(tem, {
        contestId: before.contestId,
        teamId,
        kind: 'detenido',
        at: new Date(),
        lastSeen: before.lastSeen,
      });
    }
    return boardTeam(tem, teamId);
  });
}
