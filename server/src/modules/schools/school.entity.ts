import { p, type InferEntity } from '@mikro-orm/core';
import { tableEntity } from '../../db/base-entity.js';

/** `schools`. */
export const School = tableEntity('School', 'schools', {
  name: p.string().length(255),
});
export type ISchool = InferEntity<typeof School>;
