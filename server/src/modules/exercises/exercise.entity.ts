import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';
import { Level } from '../levels/index.js';
import { Contest } from '../contests/index.js';

/** `exercises`: a PDF stored under DATA_DIR with a generated `path`; `originalName` is for display. */
export const Exercise = defineEntity({
  name: 'Exercise',
  tableName: 'exercises',
  properties: {
    ...baseProperties,
    path: p.string().length(255),
    originalName: p.string().length(255),
    level: () => p.manyToOne(Level).fieldName('levels_id').deleteRule('restrict'),
    contest: () => p.manyToOne(Contest).fieldName('contests_id').deleteRule('restrict'),
  },
});
export type IExercise = InferEntity<typeof Exercise>;
