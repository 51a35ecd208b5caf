import { z } from 'zod';
import { idParamsSchema } from '../schemas/common.js';
import { okEnvelope } from '../schemas/api.js';
import { ADMIN_ACCESS, STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

/** The answer of a delete (SPEC.md section 7): `{ success, message: 'Dato Eliminado.' }`. */
export const deletedReplySchema = z.object({ success: z.literal(true), message: z.string() });

/** How a catalogue names its four calls and itself (SPEC.md section 7, spelling included). */
export interface CatalogNames<L extends string, C extends string, U extends string, D extends string> {
  list: L;
  create: C;
  update: U;
  remove: D;
  /** OpenAPI tag: 'escuelas'. */
  tag: string;
  /** The thing with its article, for summaries and 404s: 'la escuela'. */
  thing: string;
}

/**
 * The four calls of a catalogue (SPEC.md section 7): `GET get<Plural>` (staff), `POST create<One>`,
 * `POST update<One>` with `id` (admin) and `GET delete<One>/{id}` (admin), typed by its row, input and
 * update schemas.
 */
export function catalogApi<
  L extends string,
  C extends string,
  U extends string,
  D extends string,
  Row extends z.ZodType,
  Input extends z.ZodType,
  Update extends z.ZodType,
>(names: CatalogNames<L, C, U, D>, schemas: { row: Row; input: Input; update: Update }) {
  const { tag, thing } = names;
  return {
    tag,
    thing,
    list: defineRoute({
      method: 'GET',
      path: `/api/${names.list}`,
      access: STAFF_ACCESS,
      tag,
      summary: `Lista: ${tag}`,
      reply: okEnvelope(z.array(schemas.row)),
    }),
    create: defineRoute({
      method: 'POST',
      path: `/api/${names.create}`,
      access: ADMIN_ACCESS,
      tag,
      summary: `Registra ${thing}`,
      body: schemas.input,
      reply: okEnvelope(schemas.row),
    }),
    update: defineRoute({
      method: 'POST',
      path: `/api/${names.update}`,
      access: ADMIN_ACCESS,
      tag,
      summary: `Actualiza ${thing}`,
      body: schemas.update,
      reply: okEnvelope(schemas.row),
    }),
    remove: defineRoute({
      method: 'GET',
      path: `/api/${names.remove}/:id`,
      access: ADMIN_ACCESS,
      tag,
      summary: `Elimina ${thing}`,
      params: idParamsSchema,
      reply: deletedReplySchema,
    }),
  };
}

/** The four calls of one catalogue, as `catalogApi` builds them. */
export type CatalogApi = ReturnType<typeof catalogApi>;

/** The four calls of a catalogue with these row, input and update schemas. */
export type CatalogApiOf<
  Row extends z.ZodType,
  Input extends z.ZodType,
  Update extends z.ZodType,
> = ReturnType<typeof catalogApi<string, string, string, string, Row, Input, Update>>;
