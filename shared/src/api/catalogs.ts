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

/** The catalogues whose four calls have the plain shape of `catalogApi` (SPEC.md section 7). */
export const contestsCatalogApi = catalogApi(
  {
    list: 'getContests',
    create: 'createContest',
    update: 'updateContest',
    remove: 'deleteContest',
    tag: 'concursos',
    thing: 'el concurso',
  },
  { row: contestRowSchema, input: contestInputSchema, update: contestUpdateSchema },
);

export const levelsApi = catalogApi(
  {
    list: 'getLevels',
    create: 'createLevel',
    update: 'updateLevel',
    remove: 'deleteLevel',
    tag: 'niveles',
    thing: 'el nivel',
  },
  { row: levelRowSchema, input: levelInputSchema, update: levelUpdateSchema },
);

export const schoolsApi = catalogApi(
  {
    list: 'getSchools',
    create: 'createSchool',
    update: 'updateSchool',
    remove: 'deleteSchool',
    tag: 'escuelas',
    thing: 'la escuela',
  },
  { row: schoolRowSchema, input: schoolInputSchema, update: schoolUpdateSchema },
);

export const departamentsApi = catalogApi(
  {
    list: 'getDepartaments',
    create: 'createDepartament',
    update: 'updateDepartament',
    remove: 'deleteDepartament',
    tag: 'departamentos',
    thing: 'el departamento',
  },
  { row: departamentRowSchema, input: departamentInputSchema, update: departamentUpdateSchema },
);

export const careersApi = catalogApi(
  {
    list: 'getCareers',
    create: 'createCareer',
    update: 'updateCareer',
    remove: 'deleteCareer',
    tag: 'carreras',
    thing: 'la carrera',
  },
  { row: careerRowSchema, input: careerInputSchema, update: careerUpdateSchema },
);

export const coachesApi = catalogApi(
  {
    list: 'getCoaches',
    create: 'createCoach',
    update: 'updateCoach',
    remove: 'deleteCoach',
    tag: 'coaches',
    thing: 'el coach',
  },
  { row: coachRowSchema, input: coachInputSchema, update: coachUpdateSchema },
);

export const processesCatalogApi = catalogApi(
  {
    list: 'getProcesses',
    create: 'createProcess',
    update: 'updateProcess',
    remove: 'deleteProcess',
    tag: 'procesos',
    thing: 'el proceso',
  },
  { row: processRowSchema, input: processInputSchema, update: processUpdateSchema },
);

export const teamsCatalogApi = catalogApi(
  {
    list: 'getTeams',
    create: 'createTeam',
    update: 'updateTeam',
    remove: 'deleteTeam',
    tag: 'equipos',
    thing: 'el equipo',
  },
  { row: teamRowSchema, input: teamInputSchema, update: teamUpdateSchema },
);
