import type { EntityManager } from '@mikro-orm/mysql';
import { TEAM_STATUS_NAMES, type AttemptLogRow, type StatusChangeRow } from '@concurso/shared';
import { Attempt } from '../agent/attempt.entity.js';
import { TeamStatusChange } from '../teams/team-status-change.entity.js';

/**
 * The reads of the two logs (DESIGN.md section 4). The logs module owns no table: it reads the
 * agent's `attempts` and the teams' `team_status_changes` through their entities.
 */

/** Rows a log answers at most, newest first. */
export const LOG_LIMIT = 1_000;

/** A team's attempts as its agent reported them, newest first. */
export async function listAttemptLog(em: EntityManager, teamId: number): Promise<AttemptLogRow[]> {
  const attempts = await em.find(
    Attempt,
    { team: teamId },
    { fields: ['process', 'killed', 'occurredAt', 'receivedAt'], orderBy: { id: 'desc' }, limit: LOG_LIMIT },
  );
  return attempts.map((a) => ({
    id: a.id,
    process: a.process,
    killed: a.killed,
    occurred_at: a.occurredAt.toISOString(),
    received_at: a.receivedAt.toISOString(),
  }));
}

/** A seeded team status with its name (SPEC.md section 4). */
const status = (id: number) => ({ id, status: TEAM_STATUS_NAMES[id] ?? String(id) });

/** A team's blocks and unblocks with the judge (null once their account is deleted) and the time, newest first. */
export async function listStatusLog(em: EntityManager, teamId: number): Promise<StatusChangeRow[]> {
  const changes = await em.find(
    TeamStatusChange,
    { team: teamId },
    { populate: ['user'], orderBy: { id: 'desc' }, limit: LOG_LIMIT },
  );
  return changes.map((c) => ({
    id: c.id,
    from: status(c.from),
    to: status(c.to),
    user: c.user ? { id: c.user.id, name: c.user.name } : null,
    automatic: c.automatic,
    at: c.at.toISOString(),
  }));
}
