import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  MESSAGES,
  exerciseFieldsSchema,
  exercisesRoutes as api,
  idSchema,
  routePath,
  type ExerciseRow,
} from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { HttpError, fieldError, validationError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import { contestIdFor, isActiveContest } from '../contests/index.js';
import {
  deleteExercise,
  findExerciseRow,
  insertExercise,
  listExerciseItems,
  listExerciseRows,
  lockExercise,
  requireLevel,
  updateExercise,
} from './exercises.repository.js';
import { inlineDisposition } from './pdf-disposition.js';
import { pdfTicketOpens, signPdfTicket } from './pdf-ticket.js';
import { exercisesDir, receivePdfForm } from './pdf-upload.js';

const NOT_FOUND = 'No se encontró el ejercicio.';

/** A multipart form's text fields checked by `schema`; field errors answer 422 (docs/design.md section 4). */
function parseFields<S extends z.ZodType>(schema: S, fields: Record<string, string>): z.output<S> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (errors[issue.path.join('.') || '_'] ??= []).push(issue.message);
  throw validationError(errors);
}

/**
 * Exercises, one PDF each (docs/spec.md sections 2, 3, 7): the calls of `exercisesRoutes`
 * (shared/src/api/exercises.ts). Files live under `DATA_DIR/exercises` with generated names; no
 * client path ever reaches the file system; files are never public. An upload leaves nothing on disk
 * when it fails, and a replaced or deleted file goes only after the database commit.
 */
const exercisesRoutes: FastifyPluginAsyncZod<{ dataDir: string; maxUploadBytes: number }> = async (
  app,
  { dataDir, maxUploadBytes },
) => {
  const dir = exercisesDir(dataDir);
  const fileOf = (stored: string) => path.join(dir, path.basename(stored));
  const removeFile = (stored: string) => rm(fileOf(stored), { force: true });

  /** Answers an exercise's PDF inline, never cached publicly; 404 when its file is missing. */
  async function sendPdf(row: ExerciseRow | null, reply: FastifyReply) {
    if (!row) throw new HttpError(404, NOT_FOUND);
    const file = fileOf(row.path);
    const info = await stat(file).catch(() => null);
    if (!info) throw new HttpError(404, 'No se encontró el archivo del ejercicio.');
    return reply
      .header('content-type', 'application/pdf')
      .header('content-length', info.size)
      .header('cache-control', 'private, no-store')
      .header('content-disposition', inlineDisposition(row.original_name))
      .send(createReadStream(file));
  }

  addRoute(app, api.list, async () => ({
    success: true as const,
    data: await listExerciseRows(app.orm.em),
    message: '',
  }));

  addRoute(app, api.combo, async (request) => ({
    success: true as const,
    data: await listExerciseItems(app.orm.em, request.params.contestId, request.params.levelId),
    message: '',
  }));

  addRoute(app, api.create, async (request) => {
    const { file, fields } = await receivePdfForm(request, dataDir, maxUploadBytes, true);
    try {
      const input = parseFields(exerciseFieldsSchema, fields);
      const data = await transaction(app.orm.em, async (em) => {
        await requireLevel(em, input.levels_id);
        const contestId = await contestIdFor(em, input.contests_id);
        return insertExercise(em, input.levels_id, contestId, file!);
      });
      app.board.catalogChanged('exercises');
      return { success: true as const, data, message: MESSAGES.created };
    } catch (err) {
      await removeFile(file!.storedName);
      throw err;
    }
  });

  addRoute(app, api.update, async (request) => {
    const { file, fields } = await receivePdfForm(request, dataDir, maxUploadBytes, false);
    let oldFile: string | null = null;
    try {
      const id = idSchema.safeParse(fields.id);
      if (!id.success) throw fieldError('id', MESSAGES.required);
      const input = parseFields(exerciseFieldsSchema, fields);
      const data = await transaction(app.orm.em, async (em) => {
        const exercise = await lockExercise(em, id.data);
        if (!exercise) throw new HttpError(404, NOT_FOUND);
        await requireLevel(em, input.levels_id);
        // Absent `contests_id`: the exercise stays in its contest (the form may move it).
        const contestId =
          input.contests_id === undefined ? exercise.contest.id : await contestIdFor(em, input.contests_id);
        oldFile = file ? exercise.path : null;
        return updateExercise(em, exercise, input.levels_id, file, contestId);
      });
      if (oldFile) await removeFile(oldFile);
      app.board.catalogChanged('exercises');
      return { success: true as const, data, message: MESSAGES.saved };
    } catch (err) {
      if (file) await removeFile(file.storedName);
      throw err;
    }
  });

  addRoute(app, api.remove, async (request) => {
    const stored = await transaction(app.orm.em, (em) => deleteExercise(em, request.params.id));
    if (stored === null) throw new HttpError(404, NOT_FOUND);
    await removeFile(stored);
    app.board.catalogChanged('exercises');
    return { success: true as const, message: MESSAGES.deleted };
  });

  addRoute(app, api.pdf, async (request, reply) =>
    sendPdf(await findExerciseRow(app.orm.em, request.params.id), reply),
  );

  // 'Ver PDF': a tab named by the file, through a URL ending in its original name.
  addRoute(app, api.pdfLink, async (request) => {
    const row = await findExerciseRow(app.orm.em, request.params.id);
    if (!row) throw new HttpError(404, NOT_FOUND);
    // The ticket is tied to the session the guard opened.
    const ticket = signPdfTicket(app, request.staff!, row.id);
    const url = `${routePath(api.namedPdf, { id: row.id, name: row.original_name })}?ticket=${encodeURIComponent(ticket)}`;
    return { success: true as const, data: { url }, message: '' };
  });

  addRoute(app, api.namedPdf, async (request, reply) => {
    if (!(await pdfTicketOpens(app, app.orm.em, request.query.ticket, request.params.id)))
      throw new HttpError(401, MESSAGES.unauthorized);
    return sendPdf(await findExerciseRow(app.orm.em, request.params.id), reply);
  });

  // docs/design.md section 6a: a key of a team outside the active contest (next term's, say)
  // gets no exercises and no PDF: its contest's statements stay unseen until it is activated.
  addRoute(app, api.agentList, async (request) => {
    const team = request.agentTeam!;
    const active = await isActiveContest(app.orm.em, team.contests_id);
    return {
      success: true as const,
      data: active ? await listExerciseItems(app.orm.em, team.contests_id, team.levels_id) : [],
      message: '',
    };
  });

  addRoute(app, api.agentPdf, async (request, reply) => {
    const team = request.agentTeam!;
    const row = await findExerciseRow(app.orm.em, request.params.id);
    // Another contest's or level's exercise, or one of a contest not active, is answered as if it did
    // not exist.
    const own =
      row &&
      row.contests_id === team.contests_id &&
      row.levels_id === team.levels_id &&
      (await isActiveContest(app.orm.em, team.contests_id));
    return sendPdf(own ? row : null, reply);
  });
};

export default exercisesRoutes;
