import type { ApiOk, ExerciseRow } from '@concurso/shared';
import { apiBlob, apiRequest } from './api-client';
import type { ListAnswer } from './catalog-api';
import { uploadRequest, type UploadOptions } from './upload-request';

/** An item of `GET /api/exercisesCombo/{contestId}/{levelId}`: the exercise's PDF name. */
export interface ExerciseComboItem {
  id: number;
  name: string;
}

/** `GET /api/exercisesCombo/{contestId}/{levelId}`: the exercises of one contest and level. */
export function fetchExercisesCombo(
  contestId: number,
  levelId: number,
  signal?: AbortSignal,
): Promise<ListAnswer<ExerciseComboItem>> {
  return apiRequest<ListAnswer<ExerciseComboItem>>(`/api/exercisesCombo/${contestId}/${levelId}`, { signal });
}

/**
 * What an exercise save sends: the PDF (optional on update: the current one stays), the level and, on
 * update, the id.
 */
export interface ExerciseUpload {
  id?: number;
  levels_id: number;
  file: File | null;
}

/**
 * The multipart body of `createExercise` / `updateExercise` (SPEC.md section 7): `id` (update only),
 * `levels_id` and the file in `path`. The fields go before the file so the server has them when the
 * file streams in. The contest is not sent: new exercises join the current contest.
 */
export function exerciseFormData(upload: ExerciseUpload): FormData {
  const form = new FormData();
  if (upload.id !== undefined) form.append('id', String(upload.id));
  form.append('levels_id', String(upload.levels_id));
  if (upload.file) form.append('path', upload.file, upload.file.name);
  return form;
}

/**
 * `POST /api/createExercise` (no id) or `POST /api/updateExercise` (with id), reporting the upload's
 * progress; 413 (too large) and 415 (not a PDF) reject with the server's message.
 */
export function saveExercise(
  upload: ExerciseUpload,
  options: UploadOptions = {},
): Promise<ApiOk<ExerciseRow>> {
  const path = upload.id === undefined ? '/api/createExercise' : '/api/updateExercise';
  return uploadRequest<ApiOk<ExerciseRow>>(path, exerciseFormData(upload), options);
}

/** `GET /api/exercisePdf/{id}` with the session's bearer token: the PDF's bytes. */
export async function fetchExercisePdf(id: number, signal?: AbortSignal): Promise<Blob> {
  const blob = await apiBlob(`/api/exercisePdf/${id}`, signal);
  // Typed as PDF whatever the answer said, so the new tab opens the browser's PDF viewer.
  return blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' });
}
