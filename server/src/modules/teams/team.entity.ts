import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';
import { Level } from '../levels/index.js';
import { Coach } from '../coaches/index.js';
import { Contest } from '../contests/index.js';
import { StatusTeam } from './status-team.entity.js';

/**
 * `teams`. `number_attempts` changes only in the transaction that inserts attempt rows, so it
 * always equals them (docs/design.md section 3). `version` grows with every change pushed to the boards
 * (docs/design.md section 6). The agent key is stored as a SHA-256 hex digest: it is a 256-bit random
 * secret, so a slow hash adds nothing and a digest can be looked up by index.
 */
export const Team = defineEntity({
  name: 'Team',
  tableName: 'teams',
  properties: {
    ...baseProperties,
    name: p.string().length(255),
    level: () => p.manyToOne(Level).fieldName('levels_id').deleteRule('restrict'),
    coach: () => p.manyToOne(Coach).fieldName('coaches_id').deleteRule('restrict'),
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('restrict'),
    statusTeam: () => p.manyToOne(StatusTeam).fieldName('status_team_id').default(1),
    number_attempts: p.integer().unsigned().default(0).fieldName('number_attempts'),
    version: p.integer().unsigned().default(1),
    agentKeyHash: p.string().length(64).nullable().unique().hidden(),
    agentLastSeen: p.datetime(3).nullable(),
    /** What the boards were last told; flipped under a row lock by heartbeats and the presence sweeper. */
    agentOnline: p.boolean().default(false),
    /**
     * The boards' alert about an offline agent (`AgentAlert`): `sin_senal` silent during the
     * active contest, `detenido` stopped the documented way; null otherwise. Cleared when it beats again.
     */
    agentAlert: p.string().length(16).nullable().fieldName('agent_alert'),
    /**
     * The bulk import that created the team (`team_imports.id`, the imports module's), so it can be
     * undone; null when made by hand. A plain id: the imports module stands above teams and reads its
     * teams through teams' index.ts. The migration keeps the foreign key (`on delete set null`).
     */
    teamImportId: p.integer().unsigned().nullable().fieldName('team_imports_id'),
    /**
     * The board's «programa nuevo» mark (observed module, observed-new-programs.ts, its one writer): the
     * newest program only this team of the contest ran after its first minutes, its latest start (UTC)
     * and its inventory row (`observed_processes.id`, no foreign key); null when none.
     */
    newProgram: p.string().length(255).nullable().fieldName('new_program'),
    newProgramAt: p.datetime().nullable().fieldName('new_program_at'),
    newProgramId: p.integer().unsigned().nullable().fieldName('new_program_id'),
  },
  uniques: [{ properties: ['contest', 'name'] }],
  indexes: [{ properties: ['agentOnline', 'agentLastSeen'] }],
});
export type ITeam = InferEntity<typeof Team>;
