import { p } from '@mikro-orm/core';
import { tableEntity } from '../../db/base-entity.js';

/** `status_team`: seeded 1 Activo, 2 Descalificado. */
export const StatusTeam = tableEntity('StatusTeam', 'status_team', {
  status: p.string().length(50),
});
