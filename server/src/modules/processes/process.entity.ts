import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseProperties } from '../../db/base-entity.js';

/**
 * `processes`: a forbidden executable's file name. Unique ignoring case: the column's
 * `utf8mb4_unicode_ci` collation makes the unique index case-insensitive.
 */
export const Process = defineEntity({
  name: 'Process',
  tableName: 'processes',
  properties: {
    ...baseProperties,
    name: p.string().length(255).unique(),
  },
});
export type IProcess = InferEntity<typeof Process>;
