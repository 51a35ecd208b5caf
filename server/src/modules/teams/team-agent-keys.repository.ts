import type { EntityManager } from '@mikro-orm/mysql';
import type { ContestRow } from '@concurso/shared';
import { contestRow } from '../contests/index.js';
import type { AgentPrincipal } from '../../plugins/access.js';
import type { SqlRunner } from '../../db/sql.js';
import { Team } from './team.entity.js';

/*
 * A team's agent key (`teams.agent_key_hash`) and what an agent's policy needs of its team. The teams
 * module owns the whole `teams` table, the agent's columns too (db/README.md says why); the agent
 * module reads and writes them through index.ts.
 */

/**
 * The team whose agent key has SHA-256 `hash`, as the guard's principal; null for no team. One SQL
 * statement, no entity, on the agents' bare pool (`poolSql(app.sql)`): it runs for every agent request
 * the key cache misses (500 agents, a 5 s cache: 100 a second), and a CPU profile showed the
 * entity's hydration there (bench/BENCHMARKS.md).
 */
export async function teamByAgentKeyHash(sql: SqlRunner, hash: string): Promise<AgentPrincipal | null> {
  const [team] = await sql<AgentPrincipal>(
    'select id, levels_id, contests_id from teams where agent_key_hash = ?',
    [hash],
  );
  return team ?? null;
}

/** Stores the SHA-256 of team `teamId`'s new agent key (the previous one stops matching); false for no team. */
export async function setAgentKeyHash(em: EntityManager, teamId: number, hash: string): Promise<boolean> {
  const team = await em.findOne(Team, teamId);
  if (!team) return false;
  team.agentKeyHash = hash;
  await em.flush();
  return true;
}

/** Teams `teamIds`' names, levels and contests, for their agents' policies; missing ids are left out. */
export async function agentTeams(
  em: EntityManager,
  teamIds: readonly number[],
): Promise<Array<{ id: number; name: string; levelsId: number; contest: ContestRow }>> {
  if (teamIds.length === 0) return [];
  const teams = await em.find(Team, { id: { $in: [...teamIds] } }, { populate: ['contest'] });
  return teams.map((team) => ({
    id: team.id,
    name: team.name,
    levelsId: team.level.id,
    contest: contestRow(team.contest),
  }));
}

/** A team of a contest as the lab board lists it. */
export interface LabTeam {
  id: number;
  name: string;
  levelsId: number;
  level: string;
}

/** The teams of contest `contestId`, by name, for the lab board. */
export async function labTeams(em: EntityManager, contestId: number): Promise<LabTeam[]> {
  const teams = await em.find(
    Team,
    { contest: contestId },
    {
      populate: ['level'],
      fields: ['name', 'level.level'],
      orderBy: { name: 'asc', id: 'asc' },
    },
  );
  return teams.map((team) => ({
    id: team.id,
    name: team.name,
    levelsId: team.level.id,
    level: team.level.level,
  }));
}
