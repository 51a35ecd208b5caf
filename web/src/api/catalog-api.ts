import {
  USER_TYPES,
  careersApi,
  coachesApi,
  contestsCatalogApi,
  departamentsApi,
  exercisesRoutes,
  levelsApi,
  processesCatalogApi,
  schoolsApi,
  teamsCatalogApi,
  usersRoutes,
  type CatalogName,
  type RouteArgs,
  type RouteReply,
  type RouteSpec,
  type UserTypeId,
} from '@concurso/shared';
import { callRoute, type ListItem } from './call-api';

/** The three user calls every user list shares (one table, docs/spec.md section 7). */
const userWrites = { create: usersRoutes.create, update: usersRoutes.update, remove: usersRoutes.remove };

/**
 * Each list screen's calls, as the shared route map declares them (`shared/src/api`, docs/spec.md section 7,
 * spelling included): `list` for its table, and `create`, `update` (JSON, with the id) and `remove`.
 * Exercises have no JSON create or update: they are uploads (`exercise-api.ts`). The users are three
 * lists (one per user type, each with its own screen and call) of one table.
 */
export const CATALOG_ROUTES = {
  contests: contestsCatalogApi,
  exercises: { list: exercisesRoutes.list, remove: exercisesRoutes.remove },
  levels: levelsApi,
  schools: schoolsApi,
  departaments: departamentsApi,
  careers: careersApi,
  coaches: coachesApi,
  teams: teamsCatalogApi,
  processes: processesCatalogApi,
  adminUsers: { ...userWrites, list: usersRoutes.listAdmins },
  judgeUsers: { ...userWrites, list: usersRoutes.listJudges },
  participantUsers: { ...userWrites, list: usersRoutes.listParticipants },
} as const;

type CatalogRoutes = typeof CATALOG_ROUTES;

/** A catalogue with a list screen. */
export type ListCatalog = keyof CatalogRoutes;

/** A catalogue saved as JSON through `createCatalogRow` / `updateCatalogRow` (all but exercises). */
export type JsonCatalog = {
  [K in ListCatalog]: CatalogRoutes[K] extends { create: RouteSpec } ? K : never;
}[ListCatalog];

/** The `create` route of a JSON catalogue. */
type CreateRoute<K extends JsonCatalog> = CatalogRoutes[K] extends { create: infer R extends RouteSpec }
  ? R
  : never;

type MappedRows = { [K in ListCatalog]: ListItem<CatalogRoutes[K]['list']> };
type MappedInputs = { [K in JsonCatalog]: RouteArgs<CreateRoute<K>>['body'] };
type MappedSaveReplies = { [K in JsonCatalog]: RouteReply<CreateRoute<K>> };

// Interfaces over the mapped types: an interface's member, unlike a mapped type's, still reads as an
// object (`row.id`, `answer.message`) for a generic catalogue `K`. They add no member of their own.
/* eslint-disable @typescript-eslint/no-empty-object-type */
/** Each list catalogue's row, as its `list` route answers it. */
export interface CatalogRows extends MappedRows {}
/** Each JSON catalogue's create body, as its `create` route declares it (`update` adds the `id`). */
export interface CatalogInputs extends MappedInputs {}
/** Each JSON catalogue's create or update answer: the saved row as listed, and 'Registrado' / 'Guardado'. */
export interface SaveReplies extends MappedSaveReplies {}
/* eslint-enable @typescript-eslint/no-empty-object-type */

/** The answer of a delete: 'Dato Eliminado.'. */
export type DeleteReply = RouteReply<typeof usersRoutes.remove>;

/**
 * The catalogue of `catalog.changed` whose announcement makes each list stale (the three user lists
 * share the server's `users`); the first element of each list's query key.
 */
export const LIST_SOURCES: Readonly<Record<ListCatalog, CatalogName>> = {
  contests: 'contests',
  exercises: 'exercises',
  levels: 'levels',
  schools: 'schools',
  departaments: 'departaments',
  careers: 'careers',
  coaches: 'coaches',
  teams: 'teams',
  processes: 'processes',
  adminUsers: 'users',
  judgeUsers: 'users',
  participantUsers: 'users',
};

/** The user list of each user type (docs/spec.md section 2: /usersAdmin, /usersJuez, /usersParticipants). */
export const USER_LISTS: Readonly<Record<UserTypeId, 'adminUsers' | 'judgeUsers' | 'participantUsers'>> = {
  [USER_TYPES.admin]: 'adminUsers',
  [USER_TYPES.judge]: 'judgeUsers',
  [USER_TYPES.participant]: 'participantUsers',
};

// The calls below pick their route by a catalogue's name, which TypeScript cannot narrow to one
// route inside the function: they go through `callRoute`, and their signatures give the answer the
// type the map derives for that catalogue (what the callers are checked against).

/** `POST /api/create…`: answers the new row and 'Registrado'. */
export function createCatalogRow<K extends JsonCatalog>(
  catalog: K,
  input: CatalogInputs[K],
): Promise<SaveReplies[K]> {
  return callRoute(CATALOG_ROUTES[catalog].create, { body: input }) as Promise<SaveReplies[K]>;
}

/** `POST /api/update…` with the id: answers the saved row and 'Guardado'. */
export function updateCatalogRow<K extends JsonCatalog>(
  catalog: K,
  id: number,
  input: CatalogInputs[K],
): Promise<SaveReplies[K]> {
  return callRoute(CATALOG_ROUTES[catalog].update, { body: { ...input, id } }) as Promise<SaveReplies[K]>;
}

/** `GET /api/delete…/{id}`: 409 with a Spanish message when other rows use it. */
export function deleteCatalogRow(catalog: ListCatalog, id: number): Promise<DeleteReply> {
  return callRoute(CATALOG_ROUTES[catalog].remove, { params: { id } }) as Promise<DeleteReply>;
}
