import { capturesRoutes, routePath, type CaptureRow, type ViewScreenResult } from '@concurso/shared';
import { apiHeaders, httpError, parseJson } from './api-client';
import { callApi } from './call-api';
import { reportUnauthorized } from './session-end';
import { getToken } from './token-storage';

/**
 * The image of capture `id` (`GET /api/captures/{id}`, judges and admins), as a Blob for an object
 * URL: an `<img src>` cannot send the bearer token. Rejects like `apiRequest` (a 401 ends the session).
 */
export async function fetchCaptureImage(id: number, signal?: AbortSignal): Promise<Blob> {
  const token = getToken();
  const response = await fetch(routePath(capturesRoutes.image, { id }), {
    headers: apiHeaders('image/jpeg', token),
    signal,
    credentials: 'same-origin',
  });
  if (!response.ok) {
    const payload = parseJson(await response.text().catch(() => ''));
    if (response.status === 401) reportUnauthorized(token);
    throw httpError(response.status, payload);
  }
  return response.blob();
}

/** A team's captures in the active contest, or one attempt's (`attemptsId`: its row id), oldest first. */
export async function listCaptures(
  teamId: number,
  attemptsId?: number,
  signal?: AbortSignal,
): Promise<CaptureRow[]> {
  const answer = await callApi(capturesRoutes.list, {
    query: { teams_id: teamId, ...(attemptsId === undefined ? {} : { attempts_id: attemptsId }) },
    signal,
  });
  return answer.data;
}

/**
 * «Ver pantalla»: asks the team's machines (or `hostname`'s) for a capture now and answers once it
 * arrived (`POST /api/viewScreen`, a long poll of a few seconds). Rejects with the server's Spanish
 * message (no machine connected, none answered in time).
 */
async function viewScreen(
  teamId: number,
  hostname?: string,
  signal?: AbortSignal,
): Promise<ViewScreenResult> {
  const answer = await callApi(capturesRoutes.view, {
    body: { teams_id: teamId, ...(hostname ? { hostname } : {}) },
    signal,
  });
  return answer.data;
}

/**
 * The «Ver pantalla» request of team `teamId` (or of its machine `hostname`) as `ViewScreenButton`
 * asks it: the captures that arrived.
 */
export const screenOf =
  (teamId: number, hostname?: string) =>
  (signal: AbortSignal): Promise<CaptureRow[]> =>
    viewScreen(teamId, hostname, signal).then((result) => result.captures);
