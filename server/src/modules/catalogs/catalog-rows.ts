import type {
  EntityData,
  EntityManager,
  EntityName,
  FilterQuery,
  FindOptions,
  FromEntityType,
  RequiredEntityData,
} from '@mikro-orm/mysql';
import { MESSAGES } from '@concurso/shared';
import { HttpError } from '../../lib/http-error.js';

/** How one catalogue maps its entity to the rows of docs/spec.md section 3 and back. */
export interface CatalogRowsOptions<E extends { id: number }, Input, Row> {
  /** The answer row of one entity; relations it reads must be in `populate`. */
  toRow(entity: E): Row;
  /** Relations `toRow` reads, loaded with every listed row (`['school']`). */
  populate?: readonly string[];
  /**
   * The entity data of a validated input, before a create (`id` null) or an update: looks up the rows
   * it refers to (`requireExisting`), checks rules that need the database (HttpError). Default: the
   * input as it is.
   */
  toData?(em: EntityManager, input: Input, id: number | null): Promise<RequiredEntityData<E>>;
}

/**
 * A catalogue's reads and writes (docs/design.md section 4), each taking the EntityManager first so it runs
 * inside the route's `transaction(em, work)` fork. The shapes are those of `CatalogResource`.
 */
export interface CatalogRows<Input, Row> {
  /** Every row, oldest (lowest id) first; the web sorts. */
  list(em: EntityManager): Promise<Row[]>;
  /** Inserts a row and answers it. */
  create(em: EntityManager, input: Input): Promise<Row>;
  /** Updates row `id` and answers it, or null when it does not exist. */
  update(em: EntityManager, id: number, input: Input): Promise<Row | null>;
  /** Deletes row `id`; false when it does not exist. What uses it is asked first (`catalogRoutes`). */
  remove(em: EntityManager, id: number): Promise<boolean>;
}

/**
 * The CRUD of a plain catalogue through the EntityManager, written once for every catalogue module's
 * repository: list by id → `toRow`; create → flush → `toRow`; update: find → assign → flush → `toRow`;
 * remove: one `delete ... where id`. `Input` is the catalogue's validated input (`SchoolInput`).
 */
export function catalogRows<E extends { id: number }, Row, Input = RequiredEntityData<E>>(
  entity: EntityName<E>,
  options: CatalogRowsOptions<E, Input, Row>,
): CatalogRows<Input, Row> {
  const { toRow } = options;
  const byId = (id: number) => ({ id }) as FilterQuery<E>;
  const toData =
    options.toData ?? ((_em: EntityManager, input: Input) => Promise.resolve(input as RequiredEntityData<E>));
  // `populate` is a list of relation names of E; its path typing cannot follow a generic entity.
  const loaded = { populate: options.populate ?? [] } as FindOptions<E>;
  return {
    async list(em) {
      const rows = await em.find(entity, {}, { ...loaded, orderBy: { id: 'asc' } } as FindOptions<E>);
      return rows.map(toRow);
    },
    async create(em, input) {
      const row = em.create(entity, await toData(em, input, null));
      await em.flush();
      return toRow(row);
    },
    async update(em, id, input) {
      // Typed as the plain entity: `assign` cannot follow `Loaded<E>` of a generic entity.
      const row: E | null = await em.findOne(entity, byId(id));
      if (!row) return null;
      em.assign(row, (await toData(em, input, id)) as EntityData<FromEntityType<E>>);
      await em.flush();
      return toRow(row);
    },
    async remove(em, id) {
      return (await em.nativeDelete(entity, byId(id))) > 0;
    },
  };
}

/**
 * The row `id` of `entity` that an input names in `field` (a catalogue's select), loaded so a row can
 * embed its name. Fails with 422 and `{ [field]: [message] }` when it does not exist (docs/spec.md section 5).
 */
export async function requireExisting<E extends { id: number }>(
  em: EntityManager,
  entity: EntityName<E>,
  id: number,
  field: string,
  message: string,
): Promise<E> {
  const row = await em.findOne(entity, { id } as FilterQuery<E>);
  if (!row) throw new HttpError(422, MESSAGES.validation, { [field]: [message] });
  return row;
}
