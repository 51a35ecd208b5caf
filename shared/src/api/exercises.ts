import { z } from 'zod';
import { idParamsSchema, idSchema } from '../schemas/common.js';
import { okEnvelope } from '../schemas/api.js';
import { exerciseComboItemSchema, exerciseFieldsSchema, exerciseRowSchema } from '../schemas/teams.js';
import { ADMIN_ACCESS, STAFF_ACCESS } from './access.js';
import { deletedReplySchema } from './catalog.js';
import { defineRoute } from './route.js';

const tag = 'ejercicios';

/** Multipart fields of `updateExercise`: `id` plus those of `createExercise` (the file `path` is apart). */
export const exerciseUpdateFieldsSchema = exerciseFieldsSchema.extend({ id: idSchema });

/**
 * The answer of a PDF call: the file itself (`application/pdf`, inline, never cached publicly), not
 * JSON; errors are the JSON envelope.
 */
export const pdfReplySchema = z.unknown().meta({ description: 'El PDF (application/pdf), en línea.' });

/**
 * `data` of `exercisePdfLink` ('Ver PDF'): `url` is `/api/exercisePdf/{id}/{original name}`
 * with a `ticket` query, for a browser tab to open by itself (a tab sends no bearer token).
 */
export const exercisePdfLinkSchema = z.object({ url: z.string() });

/**
 * Exercises, one PDF each (docs/spec.md sections 2, 3, 7), and the agent's read of its own (docs/design.md
 * section 6). Uploads are `multipart/form-data` with the file in `path`: 415 when it is not a PDF by
 * content or name, 413 over the size limit, 422 for missing fields.
 */
export const exercisesRoutes = {
  /** Every exercise with `level.level` and `contest.calendar`, oldest first. */
  list: defineRoute({
    method: 'GET',
    path: '/api/getExercises',
    access: STAFF_ACCESS,
    tag,
    summary: 'Ejercicios',
    reply: okEnvelope(z.array(exerciseRowSchema)),
  }),
  /** `{id, name}` of a contest and level's exercises (`name` is the PDF's name). */
  combo: defineRoute({
    method: 'GET',
    path: '/api/exercisesCombo/:contestId/:levelId',
    access: STAFF_ACCESS,
    tag,
    summary: 'Ejercicios de un concurso y nivel',
    params: z.object({ contestId: idSchema, levelId: idSchema }),
    reply: okEnvelope(z.array(exerciseComboItemSchema)),
  }),
  /** Multipart `path` (the PDF), `levels_id` and `contests_id?`: the exercise joins that contest, else the active one. */
  create: defineRoute({
    method: 'POST',
    path: '/api/createExercise',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Registra un ejercicio (PDF)',
    multipart: exerciseFieldsSchema,
    reply: okEnvelope(exerciseRowSchema),
  }),
  /** Multipart `id`, `levels_id` and optionally a new `path` PDF, which replaces the old file. 404 unknown id. */
  update: defineRoute({
    method: 'POST',
    path: '/api/updateExercise',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Actualiza un ejercicio',
    multipart: exerciseUpdateFieldsSchema,
    reply: okEnvelope(exerciseRowSchema),
  }),
  /** Deletes the exercise, then its file. 404 unknown id. */
  remove: defineRoute({
    method: 'GET',
    path: '/api/deleteExercise/:id',
    access: ADMIN_ACCESS,
    tag,
    summary: 'Elimina un ejercicio',
    params: idParamsSchema,
    reply: deletedReplySchema,
  }),
  /** The PDF itself, for signed-in staff; the web fetches it with the bearer token. 404 unknown id or file. */
  pdf: defineRoute({
    method: 'GET',
    path: '/api/exercisePdf/:id',
    access: STAFF_ACCESS,
    tag,
    summary: 'PDF de un ejercicio',
    params: idParamsSchema,
    reply: pdfReplySchema,
  }),
  /**
   * A link to the PDF for a new tab (the tab and a saved copy are named by the file's original
   * name, not a blob's UUID): `data.url` is `namedPdf`'s path with a ticket good for this one PDF, for a
   * few minutes and while the caller's session lasts. 404 unknown id.
   */
  pdfLink: defineRoute({
    method: 'GET',
    path: '/api/exercisePdfLink/:id',
    access: STAFF_ACCESS,
    tag,
    summary: 'Enlace al PDF de un ejercicio, para una pestaña',
    params: idParamsSchema,
    reply: okEnvelope(exercisePdfLinkSchema),
  }),
  /**
   * The PDF at a URL whose last segment is its original name (Chromium's viewer titles the tab from it),
   * inline under that name. A tab sends no bearer token, so the guard lets it through and the `ticket`
   * of `pdfLink` is the access check: 401 without a valid one (expired, another exercise's, its session
   * over), 404 unknown id or file. The `name` segment is only for the browser; the file is the id's.
   */
  namedPdf: defineRoute({
    method: 'GET',
    path: '/api/exercisePdf/:id/:name',
    access: 'public',
    tag,
    summary: 'PDF de un ejercicio con su nombre, con el ticket de exercisePdfLink',
    params: z.object({ id: idSchema, name: z.string().min(1).max(255) }),
    querystring: z.object({ ticket: z.string().max(4096).optional() }),
    reply: pdfReplySchema,
  }),
  /** The exercises of the agent's own contest and level, as `combo` lists them; none while that contest is not the active one. */
  agentList: defineRoute({
    method: 'GET',
    path: '/api/agent/exercises',
    access: 'agent',
    tag: 'agente',
    summary: 'Ejercicios del equipo del agente',
    reply: okEnvelope(z.array(exerciseComboItemSchema)),
  }),
  /** A PDF of the agent's own contest and level only, while that contest is the active one (404 otherwise). */
  agentPdf: defineRoute({
    method: 'GET',
    path: '/api/agent/exercises/:id/pdf',
    access: 'agent',
    tag: 'agente',
    summary: 'PDF de un ejercicio del equipo del agente',
    params: idParamsSchema,
    reply: pdfReplySchema,
  }),
} as const;
