import { p, type InferEntity } from '@mikro-orm/core';
import { tableEntity } from '../../db/base-entity.js';

/** `coaches`: `educationalLevel` is one of EDUCATION_LEVELS (shared). */
export const Coach = tableEntity('Coach', 'coaches', {
  name: p.string().length(255),
  educationalLevel: p.string().length(50).fieldName('educationalLevel'),
});
export type ICoach = InferEntity<typeof Coach>;
