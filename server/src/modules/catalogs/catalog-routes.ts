import type { FastifyInstance } from 'fastify';
import { transaction } from '../../db/transaction.js';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import type { EntityManager } from '@mikro-orm/mysql';
import { z } from 'zod';
import { MESSAGES, idParamsSchema, okEnvelope, type CatalogName } from '@concurso/shared';
import { ADMIN_ACCESS, STAFF_ACCESS } from '../../plugins/access.js';
import { HttpError } from '../../lib/http-error.js';
import { emitBoardReset, emitCatalogChanged } from '../../realtime/board-events.js';

/** Who reads catalogue lists and who writes them (DESIGN.md section 5). */

/**
 * What one catalogue needs to get its four calls of SPEC.md section 7
 * (`GET get<Plural>`, `POST create<One>`, `POST update<One>`, `GET delete<One>/{id}`), answered as
 * DESIGN.md section 4 says. Each resource module describes itself with one of these; the shapes come
 * from the shared zod schemas, so validation, serialization and OpenAPI agree with the web.
 */
export interface CatalogResource<Row, Input extends object, Snapshot = never> {
  /** Sent in `catalog.changed` after every write. */
  catalog: CatalogName;
  /** Route names: e.g. `{ list: 'getSchools', create: 'createSchool', update: 'updateSchool', remove: 'deleteSchool' }`. */
  routes: { list: string; create: string; update: string; remove: string };
  /** OpenAPI tag and the thing's Spanish name with its article ('la escuela'), for summaries. */
  tag: string;
  thing: string;
  inputSchema: z.ZodType<Input>;
  updateSchema: z.ZodType<Input & { id: number }>;
  rowSchema: z.ZodType<Row>;
  /** Every row, oldest first (the web sorts). */
  list(em: EntityManager): Promise<Row[]>;
  /** Inserts and answers the new row. Throw HttpError 422 for a bad reference. */
  create(em: EntityManager, input: Input): Promise<Row>;
  /** Updates and answers the row, or null when the id does not exist. */
  update(em: EntityManager, id: number, input: Input): Promise<Row | null>;
  /** Why the row cannot be deleted (a Spanish sentence naming what uses it), or null. */
  inUse(em: EntityManager, id: number): Promise<string | null>;
  /** Deletes; answers false when the id does not exist. */
  remove(em: EntityManager, id: number): Promise<boolean>;
  /** True when a change can alter the live board (e.g. which contest is current). */
  resetsBoard?: boolean;
  /** Reads what `afterCommit` needs to know of a row before an update or delete changes it. */
  snapshot?(em: EntityManager, id: number): Promise<Snapshot | null>;
  /** Runs once the write has committed, e.g. to push board rows (the catalogue event is sent anyway). */
  afterCommit?(app: FastifyInstance, change: CatalogChange<Snapshot>): Promise<void>;
}

/** What changed, for `afterCommit`: `before` is the `snapshot` taken before an update or delete. */
export interface CatalogChange<Snapshot> {
  kind: 'create' | 'update' | 'remove';
  id: number;
  before: Snapshot | null;
}

/** 'No se encontró la escuela.' */
export const notFoundMessage = (thing: string) => `No se encontró ${thing}.`;

/** After a committed write: tell open screens (and boards when needed). */
function announce(app: FastifyInstance, resource: { catalog: CatalogName; resetsBoard?: boolean }): void {
  emitCatalogChanged(app.io, resource.catalog);
  if (resource.resetsBoard) emitBoardReset(app.io);
}

/** Registers the four calls of a catalogue on `app` (inside the `/api` prefix). */
export function catalogRoutes<Row extends { id: number }, Input extends object, Snapshot = never>(
  resource: CatalogResource<Row, Input, Snapshot>,
): FastifyPluginAsyncZod {
  return async (plugin) => {
    const app = plugin.withTypeProvider<ZodTypeProvider>();
    const { routes, tag, thing } = resource;

    app.get(
      `/${routes.list}`,
      {
        config: { access: STAFF_ACCESS },
        schema: {
          tags: [tag],
          summary: `Lista: ${tag}`,
          response: { 200: okEnvelope(z.array(resource.rowSchema)) },
        },
      },
      async () => ({ success: true as const, data: await resource.list(app.orm.em), message: '' }),
    );

    app.post(
      `/${routes.create}`,
      {
        config: { access: ADMIN_ACCESS },
        schema: {
          tags: [tag],
          summary: `Registra ${thing}`,
          body: resource.inputSchema,
          response: { 200: okEnvelope(resource.rowSchema) },
        },
      },
      async (request) => {
        const row = await transaction(app.orm.em, (em) => resource.create(em, request.body as Input));
        announce(app, resource);
        await resource.afterCommit?.(app, { kind: 'create', id: row.id, before: null });
        return { success: true as const, data: row, message: MESSAGES.created };
      },
    );

    app.post(
      `/${routes.update}`,
      {
        config: { access: ADMIN_ACCESS },
        schema: {
          tags: [tag],
          summary: `Actualiza ${thing}`,
          body: resource.updateSchema,
          response: { 200: okEnvelope(resource.rowSchema) },
        },
      },
      async (request) => {
        const { id, ...input } = request.body as Input & { id: number };
        let before: Snapshot | null = null;
        const row = await transaction(app.orm.em, async (em) => {
          before = (await resource.snapshot?.(em, id)) ?? null;
          return resource.update(em, id, input as Input);
        });
        if (row === null) throw new HttpError(404, notFoundMessage(thing));
        announce(app, resource);
        await resource.afterCommit?.(app, { kind: 'update', id, before });
        return { success: true as const, data: row, message: MESSAGES.saved };
      },
    );

    app.get(
      `/${routes.remove}/:id`,
      {
        config: { access: ADMIN_ACCESS },
        schema: {
          tags: [tag],
          summary: `Elimina ${thing}`,
          params: idParamsSchema,
          response: { 200: z.object({ success: z.literal(true), message: z.string() }) },
        },
      },
      async (request) => {
        const { id } = request.params;
        let before: Snapshot | null = null;
        await transaction(app.orm.em, async (em) => {
          const reason = await resource.inUse(em, id);
          if (reason) throw new HttpError(409, reason);
          before = (await resource.snapshot?.(em, id)) ?? null;
          if (!(await resource.remove(em, id))) throw new HttpError(404, notFoundMessage(thing));
        });
        announce(app, resource);
        await resource.afterCommit?.(app, { kind: 'remove', id, before });
        return { success: true as const, message: MESSAGES.deleted };
      },
    );
  };
}

/** Counts rows of `table` whose `column` is `id` (for in-use checks); `table`/`column` are constants. */
export async function countWhere(
  em: EntityManager,
  table: string,
  column: string,
  id: number,
): Promise<number> {
  const rows = await em.execute<Array<{ n: number }>>(
    `select count(*) as n from \`${table}\` where \`${column}\` = ?`,
    [id],
  );
  return Number(rows[0]?.n ?? 0);
}

/** 'N departamento' / 'N departamentos'. */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Fails with 422 on `field` when a referenced row does not exist. */
export async function requireReference(
  em: EntityManager,
  table: string,
  id: number,
  field: string,
  message: string,
): Promise<void> {
  const rows = await em.execute<Array<{ id: number }>>(`select id from \`${table}\` where id = ?`, [id]);
  if (rows.length === 0) throw new HttpError(422, MESSAGES.validation, { [field]: [message] });
}
