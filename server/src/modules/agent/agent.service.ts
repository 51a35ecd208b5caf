import type { EntityManager } from '@mikro-orm/mysql';
import type { AgentAttempt, AgentAttemptsResult, BoardTeam } from '@concurso/shared';
import { boardTeam } from '../board/board.service.js';
import type { AgentPrincipal } from '../../plugins/access.js';

/**
 * Stores a batch of attempts for the agent's team (DESIGN.md section 6), idempotent by `event_id`:
 * one transaction locks the team row first (so concurrent batches queue instead of deadlocking on
 * the attempts' foreign-key locks), inserts the rows whose event id is new, adds exactly that many to
 * `number_attempts` and bumps `version`. Returns the result and, when something was counted, the new
 * board row to push after commit.
 */
export async function recordAttempts(
  em: EntityManager,
  team: AgentPrincipal,
  attempts: AgentAttempt[],
): Promise<{ result: AgentAttemptsResult; changed: BoardTeam | null }> {
  return em.transactional(async (tem) => {
    const locked = await tem.execute<Array<{ contests_id: number }>>(
      'select contests_id from teams where id = ? for update',
      [team.id],
    );
    const contestId = Number(locked[0]!.contests_id);
    const now = new Date();
    const placeholders = attempts.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
    const params = attempts.flatMap((a) => [
      team.id,
      contestId,
      a.process,
      a.killed === false ? 0 : 1,
      new Date(a.occurred_at),
      now,
      a.event_id,
      now,
      now,
    ]);
    const inserted = await tem.execute<{ affectedRows: number }>(
      `insert ignore into attempts (teams_id, contests_id, process, killed, occurred_at, received_at, event_id, created_at, updated_at) values ${placeholders}`,
      params,
      'run',
    );
    const counted = Number(inserted.affectedRows);
    if (counted > 0) {
      await tem.execute(
        'update teams set number_attempts = number_attempts + ?, version = version + 1, agent_last_seen = ?, agent_online = 1 where id = ?',
        [counted, now, team.id],
      );
    }
    const row = (await boardTeam(tem, team.id))!;
    return {
      result: {
        accepted: attempts.map((a) => a.event_id),
        counted,
        number_attempts: row.number_attempts,
      },
      changed: counted > 0 ? row : null,
    };
  });
}

/**
 * Records a heartbeat: `agent_last_seen` = now. When the boards last heard the agent was offline,
 * marks it online, bumps `version` and returns the row to push, so every board shows it at once.
 */
export async function recordHeartbeat(em: EntityManager, teamId: number): Promise<BoardTeam | null> {
  return em.transactional(async (tem) => {
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
  return em.transactional(async (tem) => {
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
    const rows: BoardTeam[] = [];
    for (const id of ids) rows.push((await boardTeam(tem, id))!);
    return rows;
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
