import { z } from 'zod';
import { idParamsSchema } from '../schemas/common.js';
import { okEnvelope } from '../schemas/api.js';
import { ADMIN_ACCESS, STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

/** The answer of a delete (docs/spec.md section 7): `{ success, message: 'Dato Eliminado.' }`. */
export const deletedReplySchema = z.object({ success: z.literal(true), message: z.string() });

/** The row, input and update schemas of a catalogue (shared/src/schemas). */
export interface CatalogSchemas<Row extends z.ZodType, Input extends z.ZodType, Update extends z.ZodType> {
  row: Row;
  input: Input;
  update: Update;
}

/**
 * The four calls of a catalogue (docs/spec.md section 7, spelling included): `GET get<Many>` (staff),
 * `POST create<One>`, `POST update<One>` with `id` (admin) and `GET delete<One>/{id}` (admin), typed by
 * its row, input and update schemas. `names` is `[one, many, tag, thing]`:
 * - `one`, the row in the write calls' names: 'School' → `createSchool`, `updateSchool`, `deleteSchool`;
 * - `many`, the list in the read call's name: 'Schools' → `getSchools`;
 * - `tag`, the OpenAPI tag: 'escuelas';
 * - `thing`, with its article, for summaries, 404s and 409s: 'la escuela'.
 */
export function catalogApi<
  One extends string,
  Many extends string,
  Row extends z.ZodType,
  Input extends z.ZodType,
  Update extends z.ZodType,
>(
  names: readonly [one: One, many: Many, tag: string, thing: string],
  schemas: CatalogSchemas<Row, Input, Update>,
) {
  const [one, many, tag, thing] = names;
  /** An admin write: `POST /api/<name>` with a JSON `body`, answering the row as listed. */
  const write = <P extends `/api/${string}`, B extends z.ZodType>(path: P, summary: string, body: B) =>
    defineRoute({
      method: 'POST',
      path,
      access: ADMIN_ACCESS,
      tag,
      summary,
      body,
      reply: okEnvelope(schemas.row),
    });
  return {
    tag,
    thing,
    list: defineRoute({
      method: 'GET',
      path: `/api/get${many}`,
      access: STAFF_ACCESS,
      tag,
      summary: `Lista: ${tag}`,
      reply: okEnvelope(z.array(schemas.row)),
    }),
    create: write(`/api/create${one}` as const, `Registra ${thing}`, schemas.input),
    update: write(`/api/update${one}` as const, `Actualiza ${thing}`, schemas.update),
    remove: defineRoute({
      method: 'GET',
      path: `/api/delete${one}/:id`,
      access: ADMIN_ACCESS,
      tag,
      summary: `Elimina ${thing}`,
      params: idParamsSchema,
      reply: deletedReplySchema,
    }),
  };
}

/** The four calls of a catalogue with these row, input and update schemas. */
export type CatalogApiOf<
  Row extends z.ZodType,
  Input extends z.ZodType,
  Update extends z.ZodType,
> = ReturnType<typeof catalogApi<string, string, Row, Input, Update>>;
