import { p, type InferEntity } from '@mikro-orm/core';
import { tableEntity } from '../../db/base-entity.js';

/**
 * `contests`: `calendar` is the term derived from `date` (`2026B`), DESIGN.md section 3.
 * The current contest is the one with the latest date, then the highest id.
 */
export const Contest = tableEntity('Contest', 'contests', {
  calendar: p.string().length(10),
  date: p.date().index(),
});
export type IContest = InferEntity<typeof Contest>;
