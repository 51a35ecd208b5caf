import { defineEntity, p } from '@mikro-orm/core';
import { Contest } from '../contests/index.js';
import { Team } from '../teams/index.js';

/**
 * `observed_processes` (what ran in the lab; docs/design.md sections 3 and 6): one executable
 * that started on a team's machine during a contest, one row per contest, team, file name and
 * fingerprint (`''` when the agent could not read the file: a unique index cannot hold a null as one
 * value). `first_seen` / `last_seen` are the agent's clock, `count` the starts reported. A machine is
 * never named by more than its team.
 */
export const ObservedProcess = defineEntity({
  name: 'ObservedProcess',
  tableName: 'observed_processes',
  properties: {
    id: p.integer().primary().autoincrement(),
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('cascade'),
    team: () => p.manyToOne(Team).fieldName('teams_id').deleteRule('cascade'),
    name: p.string().length(255),
    /** `name` folded (`foldName`): what the inventory groups by, byte for byte. */
    nameKey: p.string().length(255).columnType('varchar(255)').default(''),
    sha256: p.string().length(64).columnType('char(64)').default(''),
    /** Similarity digest of the file (`similarityDigestSchema`), null when the agent sent none. */
    tlsh: p.string().length(148).nullable(),
    /** ELF build-id of the file (`buildIdSchema`), null when the agent sent none. */
    buildId: p.string().length(64).fieldName('build_id').nullable(),
    /** What ran it when a loader or an interpreter did (`python3`), null otherwise. */
    via: p.string().length(64).nullable(),
    firstSeen: p.datetime(),
    lastSeen: p.datetime(),
    count: p.integer().unsigned().default(0),
    /** The machine's host name at the latest reported start (`''` when the agent did not say). */
    hostname: p.string().length(255).default(''),
    /** The executable's full path at the latest reported start (`''` when unknown). */
    path: p.string().length(1024).default(''),
  },
  uniques: [{ name: 'observed_processes_unique', properties: ['contest', 'team', 'name', 'sha256'] }],
});
