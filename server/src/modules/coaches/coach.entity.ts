import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';

/** `coaches`: `educationalLevel` is one of EDUCATION_LEVELS (shared). */
export const Coach = defineEntity({
  name: 'Coach',
  tableName: 'coaches',
  properties: {
    ...baseProperties,
    name: p.string().length(255),
    educationalLevel: p.string().length(50).fieldName('educationalLevel'),
  },
});
export type ICoach = InferEntity<typeof Coach>;
