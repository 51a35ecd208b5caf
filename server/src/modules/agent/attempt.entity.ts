import { defineEntity, p } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';
import { Team } from '../teams/index.js';
import { Contest } from '../contests/index.js';

/**
 * `attempts`: one forbidden process an agent killed. `event_id` is unique per team, which makes
 * `POST /api/agent/attempts` idempotent (docs/design.md section 6). `occurred_at` is the agent's clock.
 */
export const Attempt = defineEntity({
  name: 'Attempt',
  tableName: 'attempts',
  properties: {
    ...baseProperties,
    team: () => p.manyToOne(Team).fieldName('teams_id').deleteRule('cascade'),
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('restrict'),
    process: p.string().length(255),
    /** The file name a renamed copy ran as, when its fingerprint caught it; else null. */
    executable: p.string().length(255).nullable(),
    /** What ran the program when a loader or an interpreter did (`python3`), else null. */
    via: p.string().length(64).nullable(),
    /** False when the agent could not end the process. */
    killed: p.boolean().default(true),
    // Kept to the millisecond, so /bitacora orders events of one second.
    occurredAt: p.datetime(3),
    receivedAt: p.datetime(3),
    event_id: p.string().length(64).fieldName('event_id'),
  },
  uniques: [{ properties: ['team', 'event_id'] }],
});
