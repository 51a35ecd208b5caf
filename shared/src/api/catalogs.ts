import {
  careerInputSchema,
  careerRowSchema,
  careerUpdateSchema,
  coachInputSchema,
  coachRowSchema,
  coachUpdateSchema,
  contestInputSchema,
  contestRowSchema,
  contestUpdateSchema,
  departamentInputSchema,
  departamentRowSchema,
  departamentUpdateSchema,
  levelInputSchema,
  levelRowSchema,
  levelUpdateSchema,
  processInputSchema,
  processRowSchema,
  processUpdateSchema,
  schoolInputSchema,
  schoolRowSchema,
  schoolUpdateSchema,
} from '../schemas/catalogs.js';
import { teamInputSchema, teamRowSchema, teamUpdateSchema } from '../schemas/teams.js';
import { catalogApi } from './catalog.js';

// The catalogues whose four calls have the plain shape of `catalogApi` (docs/spec.md section 7). A row that
// others use is refused with 409 naming them (docs/design.md section 4); a reference to a missing row is 422.

/** Each catalogue's names: the row and the list in its call names, its OpenAPI tag, the thing. */
const NAMES = {
  contest: ['Contest', 'Contests', 'concursos', 'el concurso'],
  level: ['Level', 'Levels', 'niveles', 'el nivel'],
  school: ['School', 'Schools', 'escuelas', 'la escuela'],
  departament: ['Departament', 'Departaments', 'departamentos', 'el departamento'],
  career: ['Career', 'Careers', 'carreras', 'la carrera'],
  coach: ['Coach', 'Coaches', 'coaches', 'el coach'],
  process: ['Process', 'Processes', 'procesos', 'el proceso'],
  team: ['Team', 'Teams', 'equipos', 'el equipo'],
} as const;

const contestSchemas = { row: contestRowSchema, input: contestInputSchema, update: contestUpdateSchema };
const levelSchemas = { row: levelRowSchema, input: levelInputSchema, update: levelUpdateSchema };
const schoolSchemas = { row: schoolRowSchema, input: schoolInputSchema, update: schoolUpdateSchema };
const departamentSchemas = {
  row: departamentRowSchema,
  input: departamentInputSchema,
  update: departamentUpdateSchema,
};
const careerSchemas = { row: careerRowSchema, input: careerInputSchema, update: careerUpdateSchema };
const coachSchemas = { row: coachRowSchema, input: coachInputSchema, update: coachUpdateSchema };
const processSchemas = { row: processRowSchema, input: processInputSchema, update: processUpdateSchema };
const teamSchemas = { row: teamRowSchema, input: teamInputSchema, update: teamUpdateSchema };

/**
 * Contests: `calendar` is derived from `date` when missing; one with teams or exercises stays, and the
 * active one cannot be deleted (409 `MESSAGES.activeContestDelete`).
 */
export const contestsCatalogApi = catalogApi(NAMES.contest, contestSchemas);

/** Levels: Básico, Intermedio and Avanzado hold the live board's tables and are never deleted. */
export const levelsApi = catalogApi(NAMES.level, levelSchemas);

/** Schools, used by departaments. */
export const schoolsApi = catalogApi(NAMES.school, schoolSchemas);

/**
 * Departaments (the spec's spelling): each of one school, listed with `school.name`; used by careers.
 */
export const departamentsApi = catalogApi(NAMES.departament, departamentSchemas);

/** Careers: each of one departament, listed with `departament.name`; members study them. */
export const careersApi = catalogApi(NAMES.career, careerSchemas);

/** Coaches with their `educationalLevel`; each team has one. */
export const coachesApi = catalogApi(NAMES.coach, coachSchemas);

/**
 * Processes, the forbidden executables: names unique ignoring case (409); one blocked in a contest
 * stays. Its other call is `processesRoutes.addCommon` (processes.ts).
 */
export const processesCatalogApi = catalogApi(NAMES.process, processSchemas);

/** Teams of every contest, with their level, coach, contest and status (the boards show the active contest's). */
export const teamsCatalogApi = catalogApi(NAMES.team, teamSchemas);
