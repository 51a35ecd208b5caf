import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';

/** `schools`. */
export const School = defineEntity({
  name: 'School',
  tableName: 'schools',
  properties: {
    ...baseProperties,
    name: p.string().length(255),
  },
});
export type ISchool = InferEntity<typeof School>;
