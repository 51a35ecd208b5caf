import { exercisesRoutes, type RouteReply } from '@concurso/shared';
import { uploadRequest, type UploadOptions } from './upload-request';

/**
 * What an exercise save sends: the PDF (optional on update: the current one stays), the level, the
 * contest (absent: the server picks the active one) and, on update, the id.
 */
export interface ExerciseUpload {
  id?: number;
  levels_id: number;
  contests_id?: number;
  file: File | null;
}

/**
 * The multipart body of `createExercise` / `updateExercise` (docs/spec.md section 7): `id` (update only),
 * `levels_id`, `contests_id` when chosen (absent, the server uses the active contest) and the
 * file in `path`. The fields go before the file so the server has them when the file streams in.
 */
export function exerciseFormData(upload: ExerciseUpload): FormData {
  const form = new FormData();
  if (upload.id !== undefined) form.append('id', String(upload.id));
  form.append('levels_id', String(upload.levels_id));
  if (upload.contests_id !== undefined) form.append('contests_id', String(upload.contests_id));
  if (upload.file) form.append('path', upload.file, upload.file.name);
  return form;
}

/** The answer of an exercise save: the saved row as listed, and 'Registrado' / 'Guardado'. */
export type ExerciseSaveReply = RouteReply<typeof exercisesRoutes.create>;

/**
 * `POST /api/createExercise` (no id, `exercisesRoutes.create`) or `POST /api/updateExercise` (with id,
 * `exercisesRoutes.update`), reporting the upload's progress; 413 (too large) and 415 (not a PDF)
 * reject with the server's message.
 */
export function saveExercise(
  upload: ExerciseUpload,
  options: UploadOptions = {},
): Promise<ExerciseSaveReply> {
  const route = upload.id === undefined ? exercisesRoutes.create : exercisesRoutes.update;
  return uploadRequest(route, exerciseFormData(upload), options);
}
