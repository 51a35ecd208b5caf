import { p } from '@mikro-orm/core';

/**
 * Columns every table has beyond its own (docs/design.md section 3): `id`, `created_at`, `updated_at`.
 * Spread first into each such entity's `defineEntity` properties (composition, the way MikroORM's
 * `defineEntity` documentation shares columns): `properties: { ...baseProperties, name: p.string() }`.
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
