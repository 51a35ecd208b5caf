import type {
  ApiOk,
  BlockedProcessesInput,
  CareerInput,
  CareerRow,
  CoachInput,
  CoachRow,
  ContestInput,
  ContestProcessRow,
  ContestRow,
  DepartamentInput,
  DepartamentRow,
  ExerciseRow,
  LevelInput,
  LevelRow,
  ProcessInput,
  ProcessRow,
  SchoolInput,
  SchoolRow,
  TeamInput,
  TeamRow,
  UserInput,
  UserRow,
} from '@concurso/shared';
import { USER_TYPES, type CatalogName, type UserTypeId } from '@concurso/shared';
import { apiRequest } from './api-client';

/**
 * Each list catalogue's row type (what `GET /api/get…` answers). The users are three lists (one per
 * user type, each with its own screen and call) of one table.
 */
export interface CatalogRows {
  contests: ContestRow;
  levels: LevelRow;
  schools: SchoolRow;
  departaments: DepartamentRow;
  careers: CareerRow;
  coaches: CoachRow;
  processes: ProcessRow;
  teams: TeamRow;
  exercises: ExerciseRow;
  adminUsers: UserRow;
  judgeUsers: UserRow;
  participantUsers: UserRow;
}

/**
 * Each JSON catalogue's create / update body (without `id`). Exercises are not here: they are sent as
 * multipart with their PDF (`exercise-api.ts`).
 */
export interface CatalogInputs {
  contests: ContestInput;
  levels: LevelInput;
  schools: SchoolInput;
  departaments: DepartamentInput;
  careers: CareerInput;
  coaches: CoachInput;
  processes: ProcessInput;
  teams: TeamInput;
  adminUsers: UserInput;
  judgeUsers: UserInput;
  participantUsers: UserInput;
}

/** A catalogue with a list screen. */
export type ListCatalog = keyof CatalogRows;

/** A catalogue saved as JSON through `createCatalogRow` / `updateCatalogRow`. */
export type JsonCatalog = keyof CatalogInputs;

/** The list catalogues, in menu order. */
export const LIST_CATALOGS: readonly ListCatalog[] = [
  'contests',
  'exercises',
  'levels',
  'schools',
  'departaments',
  'careers',
  'coaches',
  'teams',
  'processes',
  'adminUsers',
  'judgeUsers',
  'participantUsers',
];

/**
 * The catalogue of `catalog.changed` whose announcement makes each list stale (the three user lists
 * share the server's `users`).
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

/** The user list of each user type (SPEC.md section 2: /usersAdmin, /usersJuez, /usersParticipants). */
export const USER_LISTS: Readonly<Record<UserTypeId, 'adminUsers' | 'judgeUsers' | 'participantUsers'>> = {
  [USER_TYPES.admin]: 'adminUsers',
  [USER_TYPES.judge]: 'judgeUsers',
  [USER_TYPES.participant]: 'participantUsers',
};

/**
 * The spec's names of each catalogue's calls (SPEC.md section 7, spelling included):
 * `get{plural}`, `create{one}`, `update{one}`, `delete{one}/{id}`.
 */
const ENTITY_NAMES: Record<ListCatalog, { list: string; one: string }> = {
  contests: { list: 'Contests', one: 'Contest' },
  exercises: { list: 'Exercises', one: 'Exercise' },
  levels: { list: 'Levels', one: 'Level' },
  schools: { list: 'Schools', one: 'School' },
  departaments: { list: 'Departaments', one: 'Departament' },
  careers: { list: 'Careers', one: 'Career' },
  coaches: { list: 'Coaches', one: 'Coach' },
  teams: { list: 'Teams', one: 'Team' },
  processes: { list: 'Processes', one: 'Process' },
  adminUsers: { list: 'UsersAdmin', one: 'User' },
  judgeUsers: { list: 'UsersJuecez', one: 'User' },
  participantUsers: { list: 'UsersParticipants', one: 'User' },
};

/** The paths of one catalogue's calls. */
export interface CatalogPaths {
  list: string;
  create: string;
  update: string;
  remove: (id: number) => string;
}

/** The paths of `catalog`'s list, create, update and delete calls. */
export function catalogPaths(catalog: ListCatalog): CatalogPaths {
  const { list, one } = ENTITY_NAMES[catalog];
  return {
    list: `/api/get${list}`,
    create: `/api/create${one}`,
    update: `/api/update${one}`,
    remove: (id) => `/api/delete${one}/${id}`,
  };
}

/** A list answer; `success` may be false with a warning message (SPEC.md section 8). */
export interface ListAnswer<T> {
  success: boolean;
  data: T[];
  message: string;
}

/** `GET /api/get…`: every row of a catalogue. */
export function fetchCatalog<K extends ListCatalog>(
  catalog: K,
  signal?: AbortSignal,
): Promise<ListAnswer<CatalogRows[K]>> {
  return apiRequest<ListAnswer<CatalogRows[K]>>(catalogPaths(catalog).list, { signal });
}

/** `POST /api/create…`: answers the new row and 'Registrado'. */
export function createCatalogRow<K extends JsonCatalog>(
  catalog: K,
  input: CatalogInputs[K],
): Promise<ApiOk<CatalogRows[K]>> {
  return apiRequest<ApiOk<CatalogRows[K]>>(catalogPaths(catalog).create, { method: 'POST', body: input });
}

/** `POST /api/update…` with the id: answers the saved row and 'Guardado'. */
export function updateCatalogRow<K extends JsonCatalog>(
  catalog: K,
  id: number,
  input: CatalogInputs[K],
): Promise<ApiOk<CatalogRows[K]>> {
  return apiRequest<ApiOk<CatalogRows[K]>>(catalogPaths(catalog).update, {
    method: 'POST',
    body: { ...input, id },
  });
}

/** Answer of a delete: 'Dato Eliminado.'. */
export interface DeleteAnswer {
  success: boolean;
  message: string;
}

/** `GET /api/delete…/{id}`: 409 with a Spanish message when other rows use it. */
export function deleteCatalogRow(catalog: ListCatalog, id: number): Promise<DeleteAnswer> {
  return apiRequest<DeleteAnswer>(catalogPaths(catalog).remove(id));
}

/** `GET /api/processContest/{contestId}`: the contest's blocked processes. */
export function fetchContestProcesses(
  contestId: number,
  signal?: AbortSignal,
): Promise<ListAnswer<ContestProcessRow>> {
  return apiRequest<ListAnswer<ContestProcessRow>>(`/api/processContest/${contestId}`, { signal });
}

/** `POST /api/createBlockedProcessForContest`: replaces the contest's blocked set. */
export function saveContestProcesses(input: BlockedProcessesInput): Promise<ApiOk<ContestProcessRow[]>> {
  return apiRequest<ApiOk<ContestProcessRow[]>>('/api/createBlockedProcessForContest', {
    method: 'POST',
    body: input,
  });
}

/** Answer data of `POST /api/addCommonProcesses`. */
export interface CommonProcessesResult {
  added: number;
  skipped: number;
}

/** `POST /api/addCommonProcesses`: adds the ready catalogue of forbidden executables, skipping present ones. */
export function addCommonProcesses(): Promise<ApiOk<CommonProcessesResult>> {
  return apiRequest<ApiOk<CommonProcessesResult>>('/api/addCommonProcesses', { method: 'POST' });
}
