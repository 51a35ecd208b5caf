import { z } from 'zod';
import { USER_TYPES } from '../constants.js';
import { MESSAGES } from '../messages.js';
import { idSchema, integerSchema, requiredText, embeddedRowSchema, rowIntSchema } from './common.js';
import { requiredIdSchema } from './catalogs.js';
import { addPasswordIssue } from './password.js';

/**
 * Teams, members, exercises and users (docs/spec.md sections 3, 5 and 7), validated with these schemas by
 * the web's forms and the server's routes alike.
 */

// Teams ---------------------------------------------------------------------------------------
/**
 * `POST /api/createTeam {name, levels_id, coaches_id, contests_id?}`: the team joins `contests_id`, or
 * the active contest when it is absent (docs/design.md section 3; the form's select defaults to it).
 */
export const teamInputSchema = z.object({
  name: requiredText(),
  levels_id: requiredIdSchema,
  coaches_id: requiredIdSchema,
  contests_id: z.preprocess(
    (value) => (value === '' || value === null ? undefined : value),
    requiredIdSchema.optional(),
  ),
});
export const teamUpdateSchema = z.object({ id: idSchema, ...teamInputSchema.shape });
export type TeamInput = z.infer<typeof teamInputSchema>;

/** A row of `GET /api/getTeams` with the names docs/spec.md section 3 embeds. */
export const teamRowSchema = z.object({
  id: rowIntSchema,
  name: z.string(),
  levels_id: rowIntSchema,
  coaches_id: rowIntSchema,
  contests_id: rowIntSchema,
  number_attempts: rowIntSchema,
  status_team: embeddedRowSchema('status'),
  coach: embeddedRowSchema('name'),
  level: embeddedRowSchema('level'),
  contest: embeddedRowSchema('calendar'),
  /** True once an agent key was generated for the team (the key itself is never sent again). */
  has_agent_key: z.boolean(),
});
export type TeamRow = z.infer<typeof teamRowSchema>;

// Members -------------------------------------------------------------------------------------
/** Semester 1..10; its error reuses the career message (docs/spec.md section 5). */
export const semesterSchema = integerSchema({
  min: 1,
  max: 10,
  outOfRange: MESSAGES.required,
  notInteger: MESSAGES.required,
});

/** One row of `POST /api/createMember`: code, name, semester, career required (docs/spec.md section 5). */
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
  .array(memberInputSchema, { error: 'Agregue al menos un integrante' })
  .min(1, { error: 'Agregue al menos un integrante' })
  .max(20, { error: 'Máximo 20 integrantes' });

/** A member as `GET /api/getParticipantTeam/{teamId}` lists it; `career` null shows 'Sin carrera'. */
export const memberRowSchema = z.object({
  id: rowIntSchema,
  code: z.string(),
  name: z.string(),
  semester: rowIntSchema,
  teams_id: rowIntSchema,
  careers_id: rowIntSchema.nullable(),
  career: embeddedRowSchema('name').nullable(),
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
  id: rowIntSchema,
  /** The stored file's generated name (RUTA). */
  path: z.string(),
  original_name: z.string(),
  levels_id: rowIntSchema,
  contests_id: rowIntSchema,
  level: embeddedRowSchema('level'),
  contest: embeddedRowSchema('calendar'),
});
export type ExerciseRow = z.infer<typeof exerciseRowSchema>;
/** An item of `GET /api/exercisesCombo/{contestId}/{levelId}`. */
export const exerciseComboItemSchema = embeddedRowSchema('name');

/** Default most bytes of an exercise PDF (20 MB; `MAX_UPLOAD_BYTES` overrides). */
export const DEFAULT_MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

// Users ---------------------------------------------------------------------------------------
const usernameSchema = requiredText(100).regex(/^[A-Za-z0-9._@-]+$/, {
  error: 'Use solo letras, dígitos, punto, guion, guion bajo o @',
});

/** `types_users_id`: 1 admin, 2 judge, 3 participant (docs/spec.md section 9). */
export const userTypeIdSchema = integerSchema({
  min: USER_TYPES.admin,
  max: USER_TYPES.participant,
  outOfRange: 'Tipo de usuario no válido',
  notInteger: 'Tipo de usuario no válido',
});

/**
 * The password as sent: a text, or '' / null / absent for none (participants) or "keep the current
 * one" (an update). Its policy needs the user type and the username, so the object checks it.
 */
const passwordFieldSchema = z
  .union([z.string(), z.null()], { error: 'La contraseña debe ser un texto' })
  .optional();

const userFields = {
  name: requiredText(),
  username: usernameSchema,
  password: passwordFieldSchema,
  types_users_id: userTypeIdSchema,
};

/**
 * The staff password rules of a user body: administrators and judges need a password when
 * `required` (create), and any password they are given must pass `passwordProblem` with their
 * username (reported on `password`, where the web form shows it). Participants have none (docs/spec.md
 * section 5); the server ignores one sent for them.
 */
function staffPasswordRule(required: boolean) {
  return (
    user: { username: string; password?: string | null; types_users_id: number },
    ctx: z.RefinementCtx,
  ) => {
    if (user.types_users_id === USER_TYPES.participant) return;
    if (!user.password) {
      if (required) ctx.addIssue({ code: 'custom', path: ['password'], message: MESSAGES.required });
      return;
    }
    addPasswordIssue(ctx, user.password, typeof user.username === 'string' ? user.username : undefined);
  };
}

/**
 * Run the password rule even when another field (the name, the username) failed, so a form shows
 * every problem at once; skip it when the password or the type themselves are malformed.
 */
const whenPasswordAndTypeParsed = {
  when: (payload: z.core.ParsePayload) =>
    typeof payload.value === 'object' &&
    payload.value !== null &&
    !payload.issues.some((issue) => issue.path?.[0] === 'password' || issue.path?.[0] === 'types_users_id'),
};

/**
 * `POST /api/createUser {name, username, password?, types_users_id}`: admins and judges need a
 * password that passes the policy (`passwordProblem`); participants have none (docs/spec.md sections 2
 * and 5).
 */
export const userInputSchema = z
  .object(userFields)
  .superRefine(staffPasswordRule(true), whenPasswordAndTypeParsed);
/** `POST /api/updateUser`: like create plus `id`; an empty password keeps the current one. */
export const userUpdateSchema = z
  .object({ id: idSchema, ...userFields })
  .superRefine(staffPasswordRule(false), whenPasswordAndTypeParsed);
/**
 * The update rules without `id` (which travels apart), for the web's user modal: zod cannot `omit`
 * from a refined object, so the modal builds on this one.
 */
export const userFieldsSchema = z
  .object(userFields)
  .superRefine(staffPasswordRule(false), whenPasswordAndTypeParsed);
export type UserInput = z.infer<typeof userInputSchema>;
/** A user as the lists answer it: never a password. */
export const userRowSchema = z.object({
  id: rowIntSchema,
  name: z.string(),
  username: z.string(),
  types_users_id: rowIntSchema,
});
export type UserRow = z.infer<typeof userRowSchema>;
