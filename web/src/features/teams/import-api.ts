import { importsRoutes, type RouteReply } from '@concurso/shared';
import { uploadRequest, type UploadOptions } from '../../api/upload-request';

/**
 * The multipart body of `previewTeamImport` / `importTeams`: `contests_id`, then the
 * registration file in `file`.
 */
export function importFormData(contestId: number, file: File): FormData {
  const form = new FormData();
  form.append('contests_id', String(contestId));
  form.append('file', file, file.name);
  return form;
}

/** Sends `file` for contest `contestId` to one of the two import calls, with the upload's options. */
function sendImport<R extends typeof importsRoutes.preview | typeof importsRoutes.importTeams>(
  route: R,
  contestId: number,
  file: File,
  options: UploadOptions,
): Promise<RouteReply<R>> {
  return uploadRequest(route, importFormData(contestId, file), options);
}

/**
 * `POST /api/previewTeamImport` (`importsRoutes.preview`): checks `file` against contest `contestId`
 * and writes nothing. Rejects like every upload (413 too large, 415 not a CSV or XLSX).
 */
export const previewTeamImport = (contestId: number, file: File, options: UploadOptions = {}) =>
  sendImport(importsRoutes.preview, contestId, file, options);

/**
 * `POST /api/importTeams` (`importsRoutes.importTeams`): creates every team and member of `file` in
 * contest `contestId`, or nothing; a file with bad rows rejects with 422 and the rows
 * (`rejectedImportErrors` reads them), reporting the upload's progress.
 */
export const importTeams = (contestId: number, file: File, options: UploadOptions = {}) =>
  sendImport(importsRoutes.importTeams, contestId, file, options);
