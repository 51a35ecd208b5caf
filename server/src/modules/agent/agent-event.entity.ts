import { defineEntity, p } from '@mikro-orm/core';
import { Contest } from '../contests/index.js';
import { Team } from '../teams/index.js';

/**
 * `agent_events` (docs/design.md section 6a): what happened to a team's agent during the active
 * contest, for its log: `sin_senal` (no heartbeat for `AGENT_OFFLINE_AFTER_MS`, without saying it
 * stopped: the tamper alert), `detenido` (stopped the documented way), `sin_reanudar` (stopped during
 * the active contest and not back within that window: an alarm too), `en_linea` (it beat again after a
 * silence, `silence_ms` later), `reanudado` (it beat again after a stop, `silence_ms` after the stop). `last_seen`: its last heartbeat before it went quiet; `hostname` the
 * machine (presence per machine). Deleted with the contest or the team.
 */
export const AgentEvent = defineEntity({
  name: 'AgentEvent',
  tableName: 'agent_events',
  properties: {
    id: p.integer().primary().autoincrement(),
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('cascade'),
    team: () => p.manyToOne(Team).fieldName('teams_id').deleteRule('cascade'),
    /** An `AgentEventKind`. */
    kind: p.string().length(16),
    at: p.datetime(3),
    lastSeen: p.datetime(3).nullable().fieldName('last_seen'),
    silenceMs: p.integer().unsigned().nullable().fieldName('silence_ms'),
    /** The machine it is about (presence per machine), null for a team's agent that names none. */
    hostname: p.string().length(255).nullable(),
  },
  indexes: [{ properties: ['contest', 'at'] }, { properties: ['team', 'at'] }],
});
