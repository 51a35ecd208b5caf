import type { EntityManager } from '@mikro-orm/mysql';
import type { BoardTeam } from '@concurso/shared';
import type mysql from 'mysql2/promise';
import { retryTransaction, transaction } from '../../db/transaction.js';
import { sqlStatements } from '../../db/sql.js';
import { boardTeam, boardTeams } from '../board/index.js';
import { activeContest } from '../contests/index.js';
import { markAgentSeen, markAgentsOffline } from '../teams/index.js';
import {
  lockAgentPresence,
  lockSilentAgents,
  recordAgentEvent,
  touchOnlineAgentStatement,
  updateMachineStatement,
  addMachineStatement,
  type MachineReport,
} from './agent.repository.js';

/**
 * Records a heartbeat of team `teamId`'s agent (issue 26: on the agents' bare pool `pool`, no ORM in the
 * usual case): `agent_last_seen` = now and, when it says which machine it beats from (`machine`, issue
 * 24), that machine's row for the lab board, both in one round trip; a machine not known yet is added
 * (`addMachineStatement`). When the boards last heard the agent was offline, marks it online (clearing its
 * alert) in a locked transaction on `fork()`, bumps `version` and returns the row to push, so every board
 * shows it at once. An agent back after an alert of the active contest (issue 24: it fell silent or was
 * stopped) gets `en_linea` in its log, with how long it was quiet.
 * @param machine.offlineAfterMs `AGENT_OFFLINE_AFTER_MS`; `maxPerTeam` `LAB_MAX_MACHINES_PER_TEAM`.
 * @throws the database's error (503 when unavailable, plugins/errors.ts).
 */
export async function recordHeartbeat(
  pool: mysql.Pool,
  fork: () => EntityManager,
  teamId: number,
  machine?: { report: MachineReport; offlineAfterMs: number; maxPerTeam: number },
): Promise<BoardTeam | null> {
  const at = new Date();
  const statements = [touchOnlineAgentStatement(teamId, at)];
  if (machine) statements.push(updateMachineStatement(teamId, machine.report, at, machine.offlineAfterMs));
  const [touched, updated] = (await sqlStatements(pool, statements)) as unknown as Array<{
    affectedRows: number;
  }>;
  if (machine && updated!.affectedRows === 0) {
    const add = addMachineStatement(teamId, machine.report, at, machine.maxPerTeam);
    await retryTransaction(() => sqlStatements(pool, [add]));
  }
  // The usual case, an agent the boards already show online, ends here; only when the update changed
  // no row (offline, or the same millisecond) does the locked transition run.
  if (touched!.affectedRows > 0) return null;
  return transaction(fork(), async (tem) => {
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
