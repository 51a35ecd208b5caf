import { z } from 'zod';
import { okEnvelope } from '../schemas/api.js';
import { idParamsSchema } from '../schemas/common.js';
import {
  captureListQuerySchema,
  captureRowSchema,
  viewScreenResultSchema,
  viewScreenSchema,
} from '../schemas/captures.js';
import { STAFF_ACCESS } from './access.js';
import { defineRoute } from './route.js';

const tag = 'capturas';

/**
 * Screen captures for the staff (server/src/modules/captures/README.md): judges and admins only,
 * never an agent key nor the public. The agents' upload is `agentRoutes.capture`.
 */
export const capturesRoutes = {
  /**
   * `GET /api/captures/{id}`: the image (`image/jpeg`, re-encoded by the server), with a private cache
   * header (it never changes). 404 `MESSAGES.captureNotFound`.
   */
  image: defineRoute({
    method: 'GET',
    path: '/api/captures/:id',
    access: STAFF_ACCESS,
    tag,
    summary: 'Imagen de una captura de pantalla',
    params: idParamsSchema,
    reply: z.unknown().meta({ description: 'La imagen (image/jpeg).' }),
  }),
  /**
   * `GET /api/captureList?teams_id&event_id&attempts_id`: the team's captures in the active contest
   * (with `event_id` or `attempts_id`, that attempt's), oldest first. None without an active contest.
   */
  list: defineRoute({
    method: 'GET',
    path: '/api/captureList',
    access: STAFF_ACCESS,
    tag,
    summary: 'Capturas de pantalla de un equipo o de un intento',
    querystring: captureListQuerySchema,
    reply: okEnvelope(z.array(captureRowSchema)),
  }),
  /**
   * `POST /api/viewScreen {teams_id, hostname?}` («Ver pantalla»): asks the team's connected agents
   * (or that machine's) for a capture now and answers once it arrived (a long poll of at most
   * `VIEW_SCREEN_WAIT_MS`), with the captures. Logged in the contest (who, when, which team and machine).
   * 409 `MESSAGES.noActiveContest` / `MESSAGES.captureNoMachine`; 404 a team outside the active
   * contest; 504 `MESSAGES.captureTimedOut` when none arrived in time.
   */
  view: defineRoute({
    method: 'POST',
    path: '/api/viewScreen',
    access: STAFF_ACCESS,
    tag,
    summary: 'Pide una captura de la pantalla de un equipo ahora',
    body: viewScreenSchema,
    reply: okEnvelope(viewScreenResultSchema),
  }),
} as const;
