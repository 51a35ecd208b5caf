import { z } from 'zod';
import { DEPARTAMENT_TYPES, EDUCATION_LEVELS } from '../constants.js';
import { MESSAGES } from '../messages.js';
import { idSchema, integerSchema, requiredText, embeddedRowSchema, rowIntSchema } from './common.js';
import { allowedSitesSchema } from './network.js';

/**
 * Inputs and rows of the first catalogues (docs/spec.md sections 3, 5 and 7): contests, levels, schools,
 * departaments, careers, coaches and processes. The web's forms and the server's routes validate with
 * these same schemas; required fields answer 'Este campo es requerido' (docs/spec.md section 5).
 */

/**
 * A required id chosen in a select: empty, missing or 0 is 'Este campo es requerido'. A select's value
 * is a string, so canonical digit strings stay accepted; booleans, hex, floats... are refused (the
 * strict integers of {@link idSchema}).
 */
export const requiredIdSchema = idSchema;

const INVALID_DATE = 'Fecha no válida (AAAA-MM-DD)';

/**
 * `YYYY-MM-DD`, a real calendar date in the years 1000 to 9999 (the range of a MySQL DATE column:
 * `0000-01-01` was accepted and stored as a zero date).
 */
export const isoDateSchema = z
  .string({
    error: (issue) => (issue.input === undefined || issue.input === null ? MESSAGES.required : INVALID_DATE),
  })
  .trim()
  .min(1, { error: MESSAGES.required })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: INVALID_DATE })
  .refine(
    (value) =>
      Number(value.slice(0, 4)) >= 1000 &&
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    { error: INVALID_DATE },
  );

/**
 * The university term of a date (docs/design.md section 3): the year plus `A` (January to June) or `B`
 * (July to December). `date` is `YYYY-MM-DD`.
 */
export function calendarOf(date: string): string {
  const month = Number(date.slice(5, 7));
  return `${date.slice(0, 4)}${month <= 6 ? 'A' : 'B'}`;
}

/** A calendar like `2026B`. */
export const calendarSchema = z
  .string({ error: 'Calendario no válido (p. ej. 2026B)' })
  .trim()
  .regex(/^\d{4}[AB]$/, { error: 'Calendario no válido (p. ej. 2026B)' });

const withId = <T extends z.ZodRawShape>(shape: T) => z.object({ id: idSchema, ...shape });

// Contests ------------------------------------------------------------------------------------
/** Most attempts `max_attempts` may name (a typing slip of 10 digits is refused, not stored). */
export const MAX_ATTEMPTS_LIMIT = 10_000;

/**
 * `max_attempts` (docs/design.md section 3 "Automatic block"): a team reaching this many attempts
 * is blocked by the server. Empty, null or absent: no automatic block.
 */
export const maxAttemptsSchema = z.preprocess(
  (value) => (value === '' || value === undefined ? null : value),
  integerSchema({
    min: 1,
    max: MAX_ATTEMPTS_LIMIT,
    outOfRange: `Escriba un número de 1 a ${MAX_ATTEMPTS_LIMIT}`,
  }).nullable(),
);

/**
 * `observe_processes` (what ran in the lab, docs/design.md section 6): whether the contest's agents report
 * every executable started on the teams' machines. On by default; absent on an update keeps the stored value.
 */
export const observeProcessesSchema = z.boolean({ error: 'Debe ser sí o no' });

/**
 * `capture_screens` («Capturar la pantalla en cada intento»): whether the contest's agents upload a
 * screen capture before and after ending a blocked program. On by default; absent on an update keeps
 * the stored value.
 */
export const captureScreensSchema = z.boolean({ error: 'Debe ser sí o no' });

/**
 * The contest fields both create and update send: `{calendar?, date, max_attempts?, observe_processes?,
 * capture_screens?, allowed_sites?}`. `allowed_sites` (docs/design.md section 6a): the network policy's destinations
 * as `allowedSitesSchema` checks them; absent on an update keeps the stored list.
 */
const contestFields = {
  calendar: calendarSchema.optional(),
  date: isoDateSchema,
  max_attempts: maxAttemptsSchema.optional(),
  observe_processes: observeProcessesSchema.optional(),
  capture_screens: captureScreensSchema.optional(),
  allowed_sites: allowedSitesSchema.optional(),
};
/**
 * `POST /api/createContest` `{calendar?, date, max_attempts?, copy_from_contests_id?}`: the server
 * derives `calendar` when it is missing; `copy_from_contests_id` copies that contest's blocked set into
 * the new one. The first contest ever created becomes the active one; later ones never
 * change it (docs/design.md section 3).
 */
export const contestInputSchema = z.object({
  ...contestFields,
  copy_from_contests_id: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    idSchema.optional(),
  ),
});
/** `POST /api/updateContest {id, calendar?, date, max_attempts?}` (the blocked set has its own calls). */
export const contestUpdateSchema = withId(contestFields);
export type ContestInput = z.infer<typeof contestInputSchema>;
/**
 * A contest as `getContests` lists it: docs/spec.md section 7's `{id, calendar, date}` plus `active` (the
 * one contest boards and agents follow, docs/design.md section 3) and `max_attempts` (null: no automatic
 * block).
 */
export const contestRowSchema = z.object({
  id: rowIntSchema,
  calendar: z.string(),
  date: z.string(),
  active: z.boolean(),
  max_attempts: rowIntSchema.nullable(),
  /** The agents report what runs on the machines (`/procesosObservados`). */
  observe_processes: z.boolean(),
  /**
   * «Capturar la pantalla en cada intento»: the agents upload a capture around each attempt. The
   * server always sends it; optional so a row written before the setting existed still reads (absent: on).
   */
  capture_screens: z.boolean().optional(),
  /**
   * The destinations the lab machines may reach while the contest is active (stored form,
   * `destinationText`); empty: no network policy. Besides them the contest server and each machine's
   * DNS resolvers are always allowed.
   */
  allowed_sites: z.array(z.string()).default([]),
  /** The network policy's version, 0 before the first list; +1 at every change of the list. */
  network_version: rowIntSchema.default(0),
});
export type ContestRow = z.infer<typeof contestRowSchema>;

// Levels --------------------------------------------------------------------------------------
export const levelInputSchema = z.object({ level: requiredText(100) });
export const levelUpdateSchema = withId(levelInputSchema.shape);
export type LevelInput = z.infer<typeof levelInputSchema>;
export const levelRowSchema = embeddedRowSchema('level');
export type LevelRow = z.infer<typeof levelRowSchema>;

// Schools -------------------------------------------------------------------------------------
export const schoolInputSchema = z.object({ name: requiredText() });
export const schoolUpdateSchema = withId(schoolInputSchema.shape);
export type SchoolInput = z.infer<typeof schoolInputSchema>;
export const schoolRowSchema = embeddedRowSchema('name');
export type SchoolRow = z.infer<typeof schoolRowSchema>;

// Departaments --------------------------------------------------------------------------------
/** `type`: 0 Interno, 1 Externo (docs/spec.md section 2: TIPO). */
export const departamentTypeSchema = integerSchema({
  min: DEPARTAMENT_TYPES.internal,
  max: DEPARTAMENT_TYPES.external,
  outOfRange: 'Seleccione Interno o Externo',
  notInteger: 'Seleccione Interno o Externo',
});
export const departamentInputSchema = z.object({
  name: requiredText(),
  type: departamentTypeSchema,
  schools_id: requiredIdSchema,
});
export const departamentUpdateSchema = withId(departamentInputSchema.shape);
export type DepartamentInput = z.infer<typeof departamentInputSchema>;
export const departamentRowSchema = z.object({
  id: rowIntSchema,
  name: z.string(),
  type: rowIntSchema,
  schools_id: rowIntSchema,
  school: embeddedRowSchema('name'),
});
export type DepartamentRow = z.infer<typeof departamentRowSchema>;

// Careers -------------------------------------------------------------------------------------
export const careerInputSchema = z.object({ name: requiredText(), departaments_id: requiredIdSchema });
export const careerUpdateSchema = withId(careerInputSchema.shape);
export type CareerInput = z.infer<typeof careerInputSchema>;
export const careerRowSchema = z.object({
  id: rowIntSchema,
  name: z.string(),
  departaments_id: rowIntSchema,
  departament: embeddedRowSchema('name'),
});
export type CareerRow = z.infer<typeof careerRowSchema>;

/**
 * A career as the members form and the registration files name it: 'Ingeniería en Computación
 * (Ciencias Computacionales)', since two departaments may each have a career of one name;
 * the bare name when the departament is not known.
 */
export function careerLabel(name: string, departament: string | null | undefined): string {
  return departament ? `${name} (${departament})` : name;
}

// Coaches -------------------------------------------------------------------------------------
export const educationalLevelSchema = z.enum(EDUCATION_LEVELS, { error: MESSAGES.required });
export const coachInputSchema = z.object({ name: requiredText(), educationalLevel: educationalLevelSchema });
export const coachUpdateSchema = withId(coachInputSchema.shape);
export type CoachInput = z.infer<typeof coachInputSchema>;
export const coachRowSchema = z.object({
  id: rowIntSchema,
  name: z.string(),
  educationalLevel: z.string(),
});
export type CoachRow = z.infer<typeof coachRowSchema>;

// Processes -----------------------------------------------------------------------------------
/**
 * A forbidden executable's file name (`Discord.exe`, `firefox`): no folders; control characters are
 * already refused by {@link requiredText}. Unique ignoring case (the server answers 409 for a clash).
 */
export const processNameSchema = requiredText().refine((v) => !/[\\/:*?"<>|]/.test(v), {
  error: 'Escriba solo el nombre del ejecutable, sin carpetas (p. ej. Discord.exe)',
});
export const processInputSchema = z.object({ name: processNameSchema });
export const processUpdateSchema = withId(processInputSchema.shape);
export type ProcessInput = z.infer<typeof processInputSchema>;
export const processRowSchema = embeddedRowSchema('name');
export type ProcessRow = z.infer<typeof processRowSchema>;

/** `POST /api/createBlockedProcessForContest`: replaces the contest's blocked set (no validation rule in the spec beyond ids). */
export const blockedProcessesInputSchema = z.object({
  contests_id: requiredIdSchema,
  processes_id: z
    .array(requiredIdSchema, {
      error: (issue) => (issue.input === undefined ? MESSAGES.required : 'Debe ser una lista de procesos'),
    })
    .max(1000, { error: 'Máximo 1000 procesos' }),
});
export type BlockedProcessesInput = z.infer<typeof blockedProcessesInputSchema>;

/** One row of `GET /api/processContest/{contestId}`: docs/spec.md section 7 reads `processes.name`. */
export const contestProcessRowSchema = z.object({
  id: rowIntSchema,
  contests_id: rowIntSchema,
  processes_id: rowIntSchema,
  processes: embeddedRowSchema('name'),
});
export type ContestProcessRow = z.infer<typeof contestProcessRowSchema>;

/** `POST /api/addCommonProcesses` answer: how many of the ready catalogue were added. */
export const commonProcessesResultSchema = z.object({ added: rowIntSchema, skipped: rowIntSchema });
