import { defineEntity, p } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';

/** `types_users`: 1 Administrador, 2 Juez, 3 Participante (seeded; docs/design.md section 3). */
export const TypeUser = defineEntity({
  name: 'TypeUser',
  tableName: 'types_users',
  properties: {
    ...baseProperties,
    name: p.string().length(50),
  },
});
