import type { FastifyInstance } from 'fastify';
import type { EntityManager } from '@mikro-orm/mysql';
import type { z } from 'zod';
import { MESSAGES, type CatalogApiOf, type CatalogName } from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { HttpError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import type { CountUses } from './catalog-usages.js';
import { inUseMessage, type Use } from './in-use-message.js';

/**
 * What one catalogue needs to get its four calls of docs/spec.md section 7
 * (`GET get<Plural>`, `POST create<One>`, `POST update<One>`, `GET delete<One>/{id}`), answered as
 * docs/design.md section 4 says. Each resource module describes itself with one of these; its `api` is the
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
  /**
   * Inserts and answers the new row. Throw HttpError 422 for a bad reference. `staffId`: the signed-in
   * staff member who asked (for a change log, e.g. a contest's allowed sites), null if unknown.
   */
  create(em: EntityManager, input: z.output<Input>, staffId: number | null): Promise<z.input<Row>>;
  /** Updates and answers the row, or null when the id does not exist. `staffId` as in `create`. */
  update(
    em: EntityManager,
    id: number,
    input: z.output<Input>,
    staffId: number | null,
  ): Promise<z.input<Row> | null>;
  /**
   * Why the row cannot be deleted (a Spanish sentence), or null; replaces the 409's default message,
   * `inUseMessage` of what uses the row. `uses` counts those (the usages other modules declared for
   * this catalogue, `CatalogRoutesOptions`), in the deletion's transaction, when called.
   */
  inUse?(em: EntityManager, id: number, uses: () => Promise<Use[]>): Promise<string | null>;
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
const notFoundMessage = (thing: string) => `No se encontró ${thing}.`;

/** After a committed write: tell open screens (and boards when needed). */
function announce(app: FastifyInstance, resource: { catalog: CatalogName; resetsBoard?: boolean }): void {
  app.board.catalogChanged(resource.catalog);
  if (resource.resetsBoard) app.board.reset();
}

/** What app.ts hands every catalogue's routes plugin. */
export interface CatalogRoutesOptions {
  /**
   * What uses a row of a catalogue and keeps it from being deleted: the usages the modules above it
   * declared (`catalogUsages`), so the catalogue never imports them.
   */
  uses: CountUses;
}

/**
 * Registers the four calls of a catalogue on `app` (inside the `/api` prefix); a delete answers 409
 * while `options.uses` counts rows using the row (or `resource.inUse` says why).
 */
export function catalogRoutes<
  Row extends z.ZodType,
  Input extends z.ZodType,
  Update extends z.ZodType,
  Snapshot = never,
>(resource: CatalogResource<Row, Input, Update, Snapshot>) {
  const { api } = resource;
  const notFound = () => new HttpError(404, notFoundMessage(api.thing));

  return async (app: FastifyInstance, options: CatalogRoutesOptions) => {
    const inUse = async (em: EntityManager, id: number) => {
      const uses = () => options.uses(resource.catalog, em, id);
      return resource.inUse ? resource.inUse(em, id, uses) : inUseMessage(api.thing, await uses());
    };

    /**
     * Runs one write in a transaction (taking the `snapshot` of row `id` first, for an update or a
     * delete), then announces it and runs `afterCommit`. A throw inside `work` rolls back and answers.
     */
    const write = async <T>(
      kind: CatalogChange<Snapshot>['kind'],
      id: number | null,
      work: (em: EntityManager) => Promise<T>,
    ): Promise<T> => {
      let before: Snapshot | null = null;
      const result = await transaction(app.orm.em, async (em) => {
        if (id !== null) before = (await resource.snapshot?.(em, id)) ?? null;
        return work(em);
      });
      announce(app, resource);
      const changed = id ?? (result as { id: number }).id;
      await resource.afterCommit?.(app, { kind, id: changed, before });
      return result;
    };

    addRoute(app, api.list, async () => ({
      success: true as const,
      data: await resource.list(app.orm.em),
      message: '',
    }));

    addRoute(app, api.create, async (request) => {
      const data = await write('create', null, (em) =>
        resource.create(em, request.body as z.output<Input>, request.staff?.id ?? null),
      );
      return { success: true as const, data, message: MESSAGES.created };
    });

    addRoute(app, api.update, async (request) => {
      const { id, ...input } = request.body as z.output<Update> & { id: number };
      const data = await write('update', id, async (em) => {
        const row = await resource.update(em, id, input as z.output<Input>, request.staff?.id ?? null);
        if (row === null) throw notFound();
        return row;
      });
      return { success: true as const, data, message: MESSAGES.saved };
    });

    addRoute(app, api.remove, async (request) => {
      const { id } = request.params;
      await write('remove', id, async (em) => {
        const reason = await inUse(em, id);
        if (reason) throw new HttpError(409, reason);
        if (!(await resource.remove(em, id))) throw notFound();
      });
      return { success: true as const, message: MESSAGES.deleted };
    });
  };
}
