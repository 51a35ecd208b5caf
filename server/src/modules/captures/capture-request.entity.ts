import { defineEntity, p } from '@mikro-orm/core';
import { Contest } from '../contests/index.js';
import { Team } from '../teams/index.js';
import { User } from '../users/index.js';

/**
 * `capture_requests`: one «Ver pantalla» (README.md): its UUID (`requestId`), the team, the machine asked for ('' for
 * every machine of the team), who asked (null once that user is deleted) and when. A `pedida` capture
 * must name an open one; the rows are also the record of who looked at which screen.
 */
export const CaptureRequest = defineEntity({
  name: 'CaptureRequest',
  tableName: 'capture_requests',
  properties: {
    id: p.integer().primary().autoincrement(),
    requestId: p.string().length(36).unique().fieldName('request_id'),
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('cascade'),
    team: () => p.manyToOne(Team).fieldName('teams_id').deleteRule('cascade'),
    hostname: p.string().length(255).default(''),
    user: () => p.manyToOne(User).fieldName('users_id').nullable().deleteRule('set null'),
    requestedAt: p.datetime(3).fieldName('requested_at'),
  },
});
