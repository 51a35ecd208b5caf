import { defineEntity, p } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';

/** `status_team`: seeded 1 Activo, 2 Descalificado. */
export const StatusTeam = defineEntity({
  name: 'StatusTeam',
  tableName: 'status_team',
  properties: {
    ...baseProperties,
    status: p.string().length(50),
  },
});
