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
  LevelInput,
  LevelRow,
  ProcessInput,
  ProcessRow,
  SchoolInput,
  SchoolRow,
} from '@concurso/shared';
import { apiRequest } from './api-client';

/** Each list catalogue's row type (what `GET /api/get…` answers). */
export interface CatalogRows {
  contests: ContestRow;
  levels: LevelRow;
  schools: SchoolRow;
  departaments: DepartamentRow;
  careers: CareerRow;
  coaches: CoachRow;
  processes: ProcessRow;
}

/** Each list catalogue's create / update body (without `id`). */
export interface CatalogInputs {
  contests: ContestInput;
  levels: LevelInput;
  schools: SchoolInput;
  departaments: DepartamentInput;
  careers: CareerInput;
  coaches: CoachInput;
  processes: ProcessInput;
}

/** A catalogue with a list screen. */
export type ListCatalog = keyof CatalogRows;

/** The list catalogues, in menu order. */
export const LIST_CATALOGS: readonly ListCatalog[] = [
  'contests',
  'levels',
  'schools',
  'departaments',
  'careers',
  'coaches',
  'processes',
];

/**
 * The spec's names of each catalogue's calls (SPEC.md section 7, spelling included):
 * `get{plural}`, `create{one}`, `update{one}`, `delete{one}/{id}`.
 */
const ENTITY_NAMES: Record<ListCatalog, { list: string; one: string }> = {
  contests: { list: 'Contests', one: 'Contest' },
  levels: { list: 'Levels', one: 'Level' },
  schools: { list: 'Schools', one: 'School' },
  departaments: { list: 'Departaments', one: 'Departament' },
  careers: { list: 'Careers', one: 'Career' },
  coaches: { list: 'Coaches', one: 'Coach' },
  processes: { list: 'Processes', one: 'Process' },
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
export function createCatalogRow<K extends ListCatalog>(
  catalog: K,
  input: CatalogInputs[K],
): Promise<ApiOk<CatalogRows[K]>> {
  return apiRequest<ApiOk<CatalogRows[K]>>(catalogPaths(catalog).create, { method: 'POST', body: input });
}

/** `POST /api/update…` with the id: answers the saved row and 'Guardado'. */
export function updateCatalogRow<K extends ListCatalog>(
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
