import { defineEntity, p } from '@mikro-orm/core';

/**
 * Columns every table has beyond its own (docs/design.md section 3): `id`, `created_at`, `updated_at`.
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

/**
 * A table of docs/design.md section 3 with the columns every table has (`baseProperties`) plus its own:
 * `tableEntity('Level', 'levels', { level: p.string().length(100) })`. Entities with table options
 * (unique indexes) call `defineEntity` themselves.
 */
export function tableEntity<const Name extends string, Properties extends Record<string, unknown>>(
  name: Name,
  tableName: string,
  properties: Properties,
) {
  return defineEntity({ name, tableName, properties: { ...baseProperties, ...properties } });
}
