import type { EntityManager } from '@mikro-orm/mysql';
import { transaction } from '../../db/transaction.js';
import type { BoardTeam } from '@concurso/shared';
import { boardTeam, boardTeams } from '../board/board.service.js';

/**
 * Records a heartbeat: `agent_last_seen` = now. When the boards last heard the agent was offline,
 * marks it online, bumps `version` and returns the row to push, so every board shows it at once.
 */
export async function recordHeartbeat(em: EntityManager, teamId: number): Promise<BoardTeam | null> {
  // The usual case, an agent the boards already show online, is one statement without a transaction;
  // only when it changed no row (offline, or the same millisecond) does the locked transition run.
  const touched = await em.execute<{ affectedRows: number }>(
    'update teams set agent_last_seen = ? where id = ? and agent_online = 1',
    [new Date(), teamId],
    'run',
  );
  if (Number(touched.affectedRows) > 0) return null;
  return transaction(em, async (tem) => {
    const rows = await tem.execute<Array<{ agent_online: number }>>(
      'select agent_online from teams where id = ? for update',
      [teamId],
    );
    const wasOnline = Boolean(Number(rows[0]?.agent_online));
    await tem.execute(
      `update teams set agent_last_seen = ?${wasOnline ? '' : ', agent_online = 1, version = version + 1'} where id = ?`,
      [new Date(), teamId],
    );
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
    const silent = await tem.execute<Array<{ id: number }>>(
      'select id from teams where agent_online = 1 and agent_last_seen < ? for update skip locked',
      [new Date(Date.now() - offlineAfterMs)],
    );
    if (silent.length === 0) return [];
    const ids = silent.map((r) => Number(r.id));
    await tem.execute(
      `update teams set agent_online = 0, version = version + 1 where id in (${ids.map(() => '?').join(', ')})`,
      ids,
    );
    return boardTeams(tem, ids);
  });
}

/** Names blocked in a contest (its `contest_processes`), sorted. */
export async function blockedNames(em: EntityManager, contestId: number): Promise<string[]> {
  const rows = await em.execute<Array<{ name: string }>>(
    'select p.name from contest_processes cp join processes p on p.id = cp.processes_id where cp.contests_id = ? order by p.name',
    [contestId],
  );
  return rows.map((r) => r.name);
}
