import { createReadStream } from 'node:fs';
import { transaction } from '../../db/transaction.js';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MESSAGES,
  exerciseComboItemSchema,
  exerciseFieldsSchema,
  exerciseRowSchema,
  idParamsSchema,
  idSchema,
  okEnvelope,
} from '@concurso/shared';
import { ADMIN_ACCESS, STAFF_ACCESS } from '../../plugins/access.js';
import { HttpError } from '../../lib/http-error.js';
import { emitCatalogChanged } from '../../realtime/board-events.js';
import { requireReference } from '../catalogs/catalog-routes.js';
import { requireCurrentContestId } from '../teams/teams.service.js';
import { exerciseRow, exercisesOf, listExercises } from './exercises.service.js';
import { exercisesDir, receivePdfForm } from './pdf-upload.js';

/** Field errors of the multipart fields, as a 422. */
function parseFields(fields: Record<string, string>) {
  const parsed = exerciseFieldsSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (errors[issue.path.join('.') || '_'] ??= []).push(issue.message);
  throw new HttpError(422, MESSAGES.validation, errors);
}

/**
 * Exercises, one PDF each (SPEC.md sections 2, 3, 7). Files live under `DATA_DIR/exercises` with
 * generated names; no client path ever reaches the file system; files are never public.
 */
const exercisesRoutes: FastifyPluginAsyncZod<{ dataDir: string; maxUploadBytes: number }> = async (
  app,
  { dataDir, maxUploadBytes },
) => {
  const dir = exercisesDir(dataDir);
  const fileOf = (stored: string) => path.join(dir, path.basename(stored));
  const removeFile = (stored: string) => rm(fileOf(stored), { force: true });

  /** `GET /api/getExercises`: every exercise with `level.level` and `contest.calendar`. */
  app.get(
    '/getExercises',
    {
      config: { access: STAFF_ACCESS },
      schema: {
        tags: ['ejercicios'],
        summary: 'Ejercicios',
        response: { 200: okEnvelope(z.array(exerciseRowSchema)) },
      },
    },
    async () => ({ success: true as const, data: await listExercises(app.orm.em), message: '' }),
  );

  /** `GET /api/exercisesCombo/{contestId}/{levelId}`: `{id, name}` of a contest and level's exercises. */
  app.get(
    '/exercisesCombo/:contestId/:levelId',
    {
      config: { access: STAFF_ACCESS },
      schema: {
        tags: ['ejercicios'],
        summary: 'Ejercicios de un concurso y nivel',
        params: z.object({ contestId: idSchema, levelId: idSchema }),
        response: { 200: okEnvelope(z.array(exerciseComboItemSchema)) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await exercisesOf(app.orm.em, request.params.contestId, request.params.levelId),
      message: '',
    }),
  );

  /**
   * `POST /api/createExercise` multipart `path` (the PDF), `levels_id`: the exercise joins the current
   * contest. 415 when the file is not a PDF by content or name, 413 over the size limit, 422 for
   * missing fields; nothing stays on disk when it fails.
   */
  app.post(
    '/createExercise',
    {
      config: { access: ADMIN_ACCESS },
      schema: {
        tags: ['ejercicios'],
        summary: 'Registra un ejercicio (PDF)',
        consumes: ['multipart/form-data'],
      },
    },
    async (request) => {
      const { file, fields } = await receivePdfForm(request, dataDir, maxUploadBytes, true);
      try {
        const input = parseFields(fields);
        const data = await transaction(app.orm.em, async (em) => {
          await requireReference(
            em,
            'levels',
            input.levels_id,
            'levels_id',
            'El nivel seleccionado no existe.',
          );
          const contestId = await requireCurrentContestId(em);
          const now = new Date();
          const result = await em.execute<{ insertId: number }>(
            'insert into exercises (path, original_name, levels_id, contests_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?)',
            [file!.storedName, file!.originalName, input.levels_id, contestId, now, now],
            'run',
          );
          return (await exerciseRow(em, Number(result.insertId)))!;
        });
        emitCatalogChanged(app.io, 'exercises');
        return { success: true as const, data, message: MESSAGES.created };
      } catch (err) {
        await removeFile(file!.storedName);
        throw err;
      }
    },
  );

  /**
   * `POST /api/updateExercise` multipart `id`, `levels_id` and optionally a new `path` PDF. A new file
   * replaces the old one, which is deleted only after the database commit.
   */
  app.post(
    '/updateExercise',
    {
      config: { access: ADMIN_ACCESS },
      schema: { tags: ['ejercicios'], summary: 'Actualiza un ejercicio', consumes: ['multipart/form-data'] },
    },
    async (request) => {
      const { file, fields } = await receivePdfForm(request, dataDir, maxUploadBytes, false);
      let oldFile: string | null = null;
      try {
        const id = idSchema.safeParse(fields.id);
        if (!id.success) throw new HttpError(422, MESSAGES.validation, { id: [MESSAGES.required] });
        const input = parseFields(fields);
        const data = await transaction(app.orm.em, async (em) => {
          const rows = await em.execute<Array<{ path: string }>>(
            'select path from exercises where id = ? for update',
            [id.data],
          );
          if (!rows[0]) throw new HttpError(404, 'No se encontró el ejercicio.');
          await requireReference(
            em,
            'levels',
            input.levels_id,
            'levels_id',
            'El nivel seleccionado no existe.',
          );
          if (file) oldFile = rows[0].path;
          await em.execute(
            `update exercises set levels_id = ?, updated_at = ?${file ? ', path = ?, original_name = ?' : ''} where id = ?`,
            [input.levels_id, new Date(), ...(file ? [file.storedName, file.originalName] : []), id.data],
          );
          return (await exerciseRow(em, id.data))!;
        });
        if (oldFile) await removeFile(oldFile);
        emitCatalogChanged(app.io, 'exercises');
        return { success: true as const, data, message: MESSAGES.saved };
      } catch (err) {
        if (file) await removeFile(file.storedName);
        throw err;
      }
    },
  );

  /** `GET /api/deleteExercise/{id}`: deletes the exercise, then its file. */
  app.get(
    '/deleteExercise/:id',
    {
      config: { access: ADMIN_ACCESS },
      schema: {
        tags: ['ejercicios'],
        summary: 'Elimina un ejercicio',
        params: idParamsSchema,
        response: { 200: z.object({ success: z.literal(true), message: z.string() }) },
      },
    },
    async (request) => {
      const stored = await transaction(app.orm.em, async (em) => {
        const rows = await em.execute<Array<{ path: string }>>(
          'select path from exercises where id = ? for update',
          [request.params.id],
        );
        if (!rows[0]) throw new HttpError(404, 'No se encontró el ejercicio.');
        await em.execute('delete from exercises where id = ?', [request.params.id]);
        return rows[0].path;
      });
      await removeFile(stored);
      emitCatalogChanged(app.io, 'exercises');
      return { success: true as const, message: MESSAGES.deleted };
    },
  );

  /**
   * `GET /api/exercisePdf/{id}` (admin, judge): the PDF itself, inline, never cached publicly. The web
   * fetches it with the bearer token and opens it in a new tab.
   */
  app.get(
    '/exercisePdf/:id',
    {
      config: { access: STAFF_ACCESS },
      schema: { tags: ['ejercicios'], summary: 'PDF de un ejercicio', params: idParamsSchema },
    },
    async (request, reply) => sendPdf(request.params.id, reply),
  );

  /** `GET /api/agent/exercises` (agent key): the exercises of the agent's own contest and level. */
  app.get(
    '/agent/exercises',
    {
      config: { access: 'agent' },
      schema: {
        tags: ['agente'],
        summary: 'Ejercicios del equipo del agente',
        response: { 200: okEnvelope(z.array(exerciseComboItemSchema)) },
      },
    },
    async (request) => {
      const team = request.agentTeam!;
      return {
        success: true as const,
        data: await exercisesOf(app.orm.em, team.contests_id, team.levels_id),
        message: '',
      };
    },
  );

  /** `GET /api/agent/exercises/{id}/pdf` (agent key): a PDF of the agent's own contest and level only (404 otherwise). */
  app.get(
    '/agent/exercises/:id/pdf',
    {
      config: { access: 'agent' },
      schema: {
        tags: ['agente'],
        summary: 'PDF de un ejercicio del equipo del agente',
        params: idParamsSchema,
      },
    },
    async (request, reply) => {
      const team = request.agentTeam!;
      const row = await exerciseRow(app.orm.em, request.params.id);
      if (!row || row.contests_id !== team.contests_id || row.levels_id !== team.levels_id) {
        throw new HttpError(404, 'No se encontró el ejercicio.');
      }
      return sendPdf(row.id, reply);
    },
  );

  async function sendPdf(id: number, reply: FastifyReply) {
    const row = await exerciseRow(app.orm.em, id);
    if (!row) throw new HttpError(404, 'No se encontró el ejercicio.');
    const file = fileOf(row.path);
    const info = await stat(file).catch(() => null);
    if (!info) throw new HttpError(404, 'No se encontró el archivo del ejercicio.');
    return reply
      .header('content-type', 'application/pdf')
      .header('content-length', info.size)
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(row.original_name)}`)
      .send(createReadStream(file));
  }
};

export default exercisesRoutes;
