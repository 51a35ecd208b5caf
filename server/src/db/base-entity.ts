import { p } from '@mikro-orm/core';

/**
 * Columns every table has beyond its own (DESIGN.md section 3): `id`, `created_at`, `updated_at`.
 * Spread into each entity's properties.
 */
export const baseProperties = {
  id: p.integer().primary().autoincrement(),
  createdAt: p
    .datetime()
    .onCreate(() => new Date())
    .defaultRaw('CURRENT_TIMESTAMP'),
  updatedAt: p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date())
    .defaultRaw('CURRENT_TIMESTAMP'),
};
