import { z } from 'zod';
import { MESSAGES } from '../messages.js';
import { requiredText } from './common.js';
import { idSchema } from './common.js';
import { requiredIdSchema } from './catalogs.js';

/**
 * Teams, members, exercises and users (SPEC.md sections 3, 5 and 7), validated with these schemas by
 * the web's forms and the server's routes alike.
 */

// Teams ---------------------------------------------------------------------------------------
/** `POST /api/createTeam {name, levels_id, coaches_id}`: the team joins the current contest. */
export const teamInputSchema = z.object({
  name: requiredText(),
  levels_id: requiredIdSchema,
  coaches_id: requiredIdSchema,
});
export const teamUpdateSchema = z.object({ id: idSchema, ...teamInputSchema.shape });
export type TeamInput = z.infer<typeof teamInputSchema>;

/** A row of `GET /api/getTeams` with the names SPEC.md section 3 embeds. */
export const teamRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  levels_id: z.number().int(),
  coaches_id: z.number().int(),
  contests_id: z.number().int(),
  number_attempts: z.number().int(),
  status_team: z.object({ id: z.number().int(), status: z.string() }),
  coach: z.object({ id: z.number().int(), name: z.string() }),
  level: z.object({ id: z.number().int(), level: z.string() }),
  contest: z.object({ id: z.number().int(), calendar: z.string() }),
  /** True once an agent key was generated for the team (the key itself is never sent again). */
  has_agent_key: z.boolean(),
});
export type TeamRow = z.infer<typeof teamRowSchema>;

// Members -------------------------------------------------------------------------------------
/** Semester 1..10; its error reuses the career message (SPEC.md section 5). */
export const semesterSchema = z.coerce
  .number({ error: MESSAGES.required })
  .int({ error: MESSAGES.required })
  .min(1, { error: MESSAGES.required })
  .max(10, { error: MESSAGES.required });

/** One row of `POST /api/createMember`: code, name, semester, career required (SPEC.md section 5). */
export const memberInputSchema = z.object({
  code: requiredText(50),
  name: requiredText(),
  semester: semesterSchema,
  teams_id: requiredIdSchema,
  careers_id: requiredIdSchema,
});
export type MemberInput = z.infer<typeof memberInputSchema>;

/** `POST /api/createMember`: the whole list, saved all or none. */
export const membersInputSchema = z
  .array(memberInputSchema)
  .min(1, { error: 'Agregue al menos un integrante' })
  .max(20);

/** A member as `GET /api/getParticipantTeam/{teamId}` lists it; `career` null shows 'Sin carrera'. */
export const memberRowSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  semester: z.number().int(),
  teams_id: z.number().int(),
  careers_id: z.number().int().nullable(),
  career: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  type_participant: z.string().nullable(),
});
export type MemberRow = z.infer<typeof memberRowSchema>;

// Exercises -----------------------------------------------------------------------------------
/** Multipart fields of `createExercise` / `updateExercise` besides the file `path`. */
export const exerciseFieldsSchema = z.object({
  levels_id: requiredIdSchema,
  contests_id: requiredIdSchema.optional(),
});
export const exerciseRowSchema = z.object({
  id: z.number().int(),
  /** The stored file's generated name (RUTA). */
  path: z.string(),
  original_name: z.string(),
  levels_id: z.number().int(),
  contests_id: z.number().int(),
  level: z.object({ id: z.number().int(), level: z.string() }),
  contest: z.object({ id: z.number().int(), calendar: z.string() }),
});
export type ExerciseRow = z.infer<typeof exerciseRowSchema>;
/** An item of `GET /api/exercisesCombo/{contestId}/{levelId}`. */
export const exerciseComboItemSchema = z.object({ id: z.number().int(), name: z.string() });

/** Default most bytes of an exercise PDF (20 MB; `MAX_UPLOAD_BYTES` overrides). */
export const DEFAULT_MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

// Users ---------------------------------------------------------------------------------------
const passwordSchema = z
  .string({ error: MESSAGES.required })
  .min(8, { error: 'La contraseña debe tener al menos 8 caracteres' })
  .max(200);

/**
 * `POST /api/createUser {name, username, password?, types_users_id}`: admins and judges need a
 * password; participants have none (SPEC.md sections 2 and 5).
 */
export const userInputSchema = z
  .object({
    name: requiredText(),
    username: requiredText(100).regex(/^[A-Za-z0-9._@-]+$/, {
      error: 'Use solo letras, dígitos, punto, guion, guion bajo o @',
    }),
    password: z.union([passwordSchema, z.literal(''), z.null()]).optional(),
    types_users_id: z.coerce.number().int().min(1).max(3, { error: MESSAGES.required }),
  })
  .superRefine((user, ctx) => {
    if (user.types_users_id !== 3 && !user.password) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: MESSAGES.required });
    }
  });
/** `POST /api/updateUser`: like create plus `id`; an empty password keeps the current one. */
export const userUpdateSchema = z.object({
  id: idSchema,
  name: requiredText(),
  username: requiredText(100).regex(/^[A-Za-z0-9._@-]+$/, {
    error: 'Use solo letras, dígitos, punto, guion, guion bajo o @',
  }),
  password: z.union([passwordSchema, z.literal(''), z.null()]).optional(),
  types_users_id: z.coerce.number().int().min(1).max(3),
});
export type UserInput = z.infer<typeof userInputSchema>;
/** A user as the lists answer it: never a password. */
export const userRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string(),
  types_users_id: z.number().int(),
});
export type UserRow = z.infer<typeof userRowSchema>;
