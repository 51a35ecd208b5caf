import type { FastifyInstance } from 'fastify';
import type { EntityManager } from '@mikro-orm/mysql';
import type { z } from 'zod';
import { MESSAGES, type CatalogApiOf, type CatalogName } from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { HttpError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import { emitBoardReset, emitCatalogChanged } from '../../realtime/board-events.js';

/**
 * What one catalogue needs to get its four calls of SPEC.md section 7
 * (`GET get<Plural>`, `POST create<One>`, `POST update<One>`, `GET delete<One>/{id}`), answered as
 * DESIGN.md section 4 says. Each resource module describes itself with one of these; its `api` is the
 * shared route map's entry (shared/src/api/catalogs.ts), so paths, access and schemas are the web's.
 */
export interface CatalogResource<
  Row extends z.ZodType,
  Input extends z.ZodType,
  Update extends z.ZodType,
  Snapshot = never,
> {
  /** Sent in `catalog.changed` after every write. */
  catalog: CatalogName;
  /** The four calls in the shared route map. */
  api: CatalogApiOf<Row, Input, Update>;
  /** Every row, oldest first (the web sorts). */
  list(em: EntityManager): Promise<Array<z.input<Row>>>;
  /** Inserts and answers the new row. Throw HttpError 422 for a bad reference. */
  create(em: EntityManager, input: z.output<Input>): Promise<z.input<Row>>;
  /** Updates and answers the row, or null when the id does not exist. */
  update(em: EntityManager, id: number, input: z.output<Input>): Promise<z.input<Row> | null>;
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
export function catalogRoutes<
  Row extends z.ZodType,
  Input extends z.ZodType,
  Update extends z.ZodType,
  Snapshot = never,
>(resource: CatalogResource<Row, Input, Update, Snapshot>) {
  return async (app: FastifyInstance) => {
    const { api } = resource;

    addRoute(app, api.list, async () => ({
      success: true as const,
      data: await resource.list(app.orm.em),
      message: '',
    }));

    addRoute(app, api.create, async (request) => {
      const input = request.body as z.output<Input>;
      const row = await transaction(app.orm.em, (em) => resource.create(em, input));
      announce(app, resource);
      await resource.afterCommit?.(app, { kind: 'create', id: (row as { id: number }).id, before: null });
      return { success: true as const, data: row, message: MESSAGES.created };
    });

    addRoute(app, api.update, async (request) => {
      const { id, ...input } = request.body as z.output<Update> & { id: number };
      let before: Snapshot | null = null;
      const row = await transaction(app.orm.em, async (em) => {
        before = (await resource.snapshot?.(em, id)) ?? null;
        return resource.update(em, id, input as z.output<Input>);
      });
      if (row === null) throw new HttpError(404, notFoundMessage(api.thing));
      announce(app, resource);
      await resource.afterCommit?.(app, { kind: 'update', id, before });
      return { success: true as const, data: row, message: MESSAGES.saved };
    });

    addRoute(app, api.remove, async (request) => {
      const { id } = request.params;
      let before: Snapshot | null = null;
      await transaction(app.orm.em, async (em) => {
        const reason = await resource.inUse(em, id);
        if (reason) throw new HttpError(409, reason);
        before = (await resource.snapshot?.(em, id)) ?? null;
        if (!(await resource.remove(em, id))) throw new HttpError(404, notFoundMessage(api.thing));
      });
      announce(app, resource);
      await resource.afterCommit?.(app, { kind: 'remove', id, before });
      return { success: true as const, message: MESSAGES.deleted };
    });
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
