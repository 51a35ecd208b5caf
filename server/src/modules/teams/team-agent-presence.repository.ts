import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/mysql';
import type { SqlStatement } from '../../db/sql.js';
import { Team } from './team.entity.js';

/*
 * The presence of a team's agent as its row holds it (`agent_online`, `agent_alert`,
 * `agent_last_seen`): the heartbeat's one statement and the locked reads of the presence transitions
 * and the sweep (agent module, agent.service.ts). What changes it for the boards (online, alert,
 * `version`) is team-row-writer.ts.
 */

/**
 * A heartbeat of an agent the boards already show online without an alert: `agent_last_seen` = `at`,
 * one statement without a transaction, changing no row when the agent is offline or alerted (a
 * silent machine of a team whose other machine beats), or in the same millisecond: then the
 * caller runs the locked transition (agent.service.ts). SQL text because it is the hot path of presence:
 * BENCHMARKS.md, "One-statement heartbeats" (500 agents sent 50 transactions/s before); on the bare pool
 * with the machine's update (`recordHeartbeat`).
 */
export function touchOnlineAgentStatement(teamId: number, at: Date): SqlStatement {
  return {
    sql: 'update teams set agent_last_seen = ? where id = ? and agent_online = 1 and agent_alert is null',
    params: [at, teamId],
  };
}

/** What the boards were last told of a team's agent, and where it stands. */
export interface AgentPresence {
  teamId: number;
  contestId: number;
  online: boolean;
  alert: string | null;
  lastSeen: Date | null;
}

const presenceOf = (team: {
  id: number;
  contest: { id: number };
  agentOnline: boolean;
  agentAlert?: string | null;
  agentLastSeen?: Date | null;
}): AgentPresence => ({
  teamId: team.id,
  contestId: team.contest.id,
  online: team.agentOnline,
  alert: team.agentAlert ?? null,
  lastSeen: team.agentLastSeen ?? null,
});

const PRESENCE_FIELDS = ['agentOnline', 'agentAlert', 'agentLastSeen', 'contest'] as const;

/** Team `teamId`'s agent presence, its row locked until the transaction ends; null for no team. */
export async function lockAgentPresence(em: EntityManager, teamId: number): Promise<AgentPresence | null> {
  const team = await em.findOne(Team, teamId, {
    fields: [...PRESENCE_FIELDS],
    lockMode: LockMode.PESSIMISTIC_WRITE,
  });
  return team ? presenceOf(team) : null;
}

/**
 * The teams shown online whose agent was last seen before `before`, their rows locked; rows another
 * process is sweeping are skipped (`skip locked`), so each change is announced once.
 */
export async function lockSilentAgents(em: EntityManager, before: Date): Promise<AgentPresence[]> {
  const teams = await em.find(
    Team,
    { agentOnline: true, agentLastSeen: { $lt: before } },
    {
      fields: [...PRESENCE_FIELDS],
      lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
    },
  );
  return teams.map(presenceOf);
}

/**
 * The presence of teams `teamIds`, their rows locked in id order; rows another process holds are
 * skipped (`skip locked`: the sweep of several processes announces each change once).
 */
export async function lockAgentTeams(
  em: EntityManager,
  teamIds: readonly number[],
): Promise<AgentPresence[]> {
  if (teamIds.length === 0) return [];
  const teams = await em.find(
    Team,
    { id: { $in: [...teamIds] } },
    {
      fields: [...PRESENCE_FIELDS],
      orderBy: { id: 'asc' },
      lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
    },
  );
  return teams.map(presenceOf);
}

/**
 * The teams of contest `contestId` whose agent names no machine and was stopped the documented way
 * (`detenido` on the boards) with its last heartbeat before `before`, their rows locked; rows another
 * process is sweeping are skipped (`skip locked`). Such an agent's stop is not dated apart from its
 * last heartbeat, at most a heartbeat period before it.
 */
export async function lockStoppedAgents(
  em: EntityManager,
  contestId: number,
  before: Date,
): Promise<AgentPresence[]> {
  const teams = await em.find(
    Team,
    { contest: contestId, agentOnline: false, agentAlert: 'detenido', agentLastSeen: { $lt: before } },
    {
      fields: [...PRESENCE_FIELDS],
      lockMode: LockMode.PESSIMISTIC_PARTIAL_WRITE,
    },
  );
  return teams.map(presenceOf);
}
