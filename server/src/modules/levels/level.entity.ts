import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';

/** `levels`: seeded 1 Básico, 2 Intermedio, 3 Avanzado (docs/design.md section 3). */
export const Level = defineEntity({
  name: 'Level',
  tableName: 'levels',
  properties: {
    ...baseProperties,
    level: p.string().length(100),
  },
});
export type ILevel = InferEntity<typeof Level>;
