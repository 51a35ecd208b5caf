import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import {
  AGENT_NAMESPACE,
  CAPTURE_LIMITS,
  CAPTURE_MAX_BASE64_LENGTH,
  CAPTURE_MAX_BYTES,
  MESSAGES,
  VIEW_SCREEN_OTHERS_MS,
  VIEW_SCREEN_WAIT_MS,
  agentRoutes,
  capturesRoutes,
  teamRoom,
  type AgentCapture,
  type AgentServerToClientEvents,
  type CaptureRow,
  type ViewScreenResult,
} from '@concurso/shared';
import { transaction } from '../../db/transaction.js';
import { HttpError } from '../../lib/http-error.js';
import { addRoute } from '../../lib/route.js';
import { activeContest, contestOrActive } from '../contests/index.js';
import { Team } from '../teams/index.js';
import { reencodeCapture } from './capture-image.js';
import { captureFile, capturesDir, removeCaptureFile, sha256Of, storeCaptureFile } from './capture-files.js';
import { PerMinuteLimiter } from '../../realtime/per-minute-limiter.js';
import { CaptureWaiters } from './capture-waiters.js';
import { CAPTURE_TURN_WAIT_MS, CaptureGate } from './capture-gate.js';
import {
  attemptEventId,
  captureHash,
  hashInUse,
  insertCapture,
  insertRequest,
  openRequest,
  recentAttempt,
  requestCaptures,
  teamCaptures,
} from './captures.repository.js';

/** How often a «Ver pantalla» call reads the table for a capture stored by another server process (ms). */
const VIEW_POLL_MS = 150;

/** Options of the captures routes: where the images live. */
export interface CapturesRoutesOptions {
  dataDir: string;
}

/**
 * Screen captures (README.md): the agents' upload (`POST /api/agent/capture`), the images and lists
 * for the staff (`GET /api/captures/:id`, `GET /api/captureList`) and «Ver pantalla»
 * (`POST /api/viewScreen`).
 */
export default async function capturesRoutesModule(
  app: FastifyInstance,
  options: CapturesRoutesOptions,
): Promise<void> {
  const dir = capturesDir(options.dataDir);
  const uploads = new PerMinuteLimiter('capture-key', CAPTURE_LIMITS.perMinute, app.redis);
  const waiters = new CaptureWaiters();
  const gate = new CaptureGate();
  /** «Ver pantalla» calls in flight in this process, by team and machine: one request each at a time. */
  const inFlight = new Map<string, Promise<ViewScreenResult>>();

  // The upload's bounds before its body is validated (so a large body costs no zod run): past the
  // key's rate, 429 with `Retry-After`; an image past `CAPTURE_MAX_BYTES`, 413. Bodies over the app's
  // 1 MiB limit get Fastify's own 413.
  app.addHook('preValidation', async (request, reply) => {
    if (request.routeOptions.url !== agentRoutes.capture.path) return;
    const team = request.agentTeam;
    if (!team) return;
    const wait = await uploads.take(team.id);
    if (wait !== null) {
      void reply.header('retry-after', String(Math.ceil(wait / 1000)));
      throw new HttpError(429, MESSAGES.captureRateLimited);
    }
    const image = (request.body as { image?: unknown } | undefined)?.image;
    if (typeof image === 'string' && image.length > CAPTURE_MAX_BASE64_LENGTH) {
      throw new HttpError(413, MESSAGES.captureTooLarge);
    }
  });

  // An agent's capture: for a recent attempt of its team (event_id) or an open «Ver pantalla» of it
  // (request_id); decoded and written again as JPEG before it is stored (capture-image.ts).
  addRoute(app, agentRoutes.capture, async (request, reply) => {
    // At most 4 stored at once, the others in arrival order, «Ver pantalla»'s first (capture-gate.ts).
    if (!(await gate.enter(request.body.request_id !== undefined))) {
      void reply.header('retry-after', String(Math.ceil(CAPTURE_TURN_WAIT_MS / 1000)));
      throw new HttpError(429, MESSAGES.tooManyRequests);
    }
    try {
      await storeUpload(request.agentTeam!, request.body);
    } finally {
      gate.leave();
    }
    return reply.code(204).send();
  });

  /** Checks, re-encodes and stores one upload (the route's order, README.md); throws its refusals. */
  async function storeUpload(agentTeam: { id: number; contests_id: number }, body: AgentCapture) {
    const { id: teamId, contests_id } = agentTeam;
    const em = app.orm.em;
    const contest = await contestOrActive(em, contests_id);
    if (!contest?.active) throw new HttpError(409, MESSAGES.agentContestInactive);
    const hostname = body.hostname ?? '';
    if (body.event_id !== undefined) {
      if (!(await recentAttempt(em, contest.id, teamId, body.event_id))) {
        throw new HttpError(404, MESSAGES.captureNotExpected);
      }
    } else {
      const open = await openRequest(em, contest.id, teamId, body.request_id!);
      if (!open || (open.hostname !== '' && open.hostname !== hostname)) {
        throw new HttpError(404, MESSAGES.captureNotExpected);
      }
    }
    const decoded = Buffer.from(body.image, 'base64');
    if (decoded.length > CAPTURE_MAX_BYTES) throw new HttpError(413, MESSAGES.captureTooLarge);
    const image = await reencodeCapture(decoded, body.mime);
    if (!image) throw new HttpError(400, MESSAGES.captureInvalidImage);
    const sha256 = sha256Of(image.jpeg);
    // The file first: a row never names a missing image (an orphan file is harmless and rare).
    await storeCaptureFile(dir, sha256, image.jpeg);
    const stored = await transaction(em, (tx) =>
      insertCapture(tx, {
        contestId: contest.id,
        teamId,
        eventId: body.event_id ?? '',
        requestId: body.request_id ?? '',
        hostname,
        moment: body.moment,
        sha256,
        bytes: image.jpeg.length,
        width: image.width,
        height: image.height,
        takenAt: new Date(body.taken_at),
      }),
    );
    if (!stored) {
      if (!(await hashInUse(em, sha256))) await removeCaptureFile(dir, sha256);
      throw new HttpError(429, MESSAGES.captureCapReached);
    }
    for (const hash of new Set(stored.dropped)) {
      if (!(await hashInUse(em, hash))) await removeCaptureFile(dir, hash);
    }
    if (body.request_id !== undefined) waiters.arrived(body.request_id);
  }

  // The image: content-addressed, so it never changes (cached privately by the staff's browser only).
  addRoute(app, capturesRoutes.image, async (request, reply) => {
    const sha256 = await captureHash(app.orm.em, request.params.id);
    if (!sha256) throw new HttpError(404, MESSAGES.captureNotFound);
    const stream = createReadStream(captureFile(dir, sha256));
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    }).catch(() => {
      throw new HttpError(404, MESSAGES.captureNotFound);
    });
    return reply
      .type('image/jpeg')
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(stream);
  });

  addRoute(app, capturesRoutes.list, async (request) => {
    const { teams_id: teamId, event_id, attempts_id } = request.query;
    const em = app.orm.em;
    const contest = await activeContest(em);
    let eventId = event_id;
    if (attempts_id !== undefined) {
      const found = await attemptEventId(em, teamId, attempts_id);
      if (found === null || (eventId !== undefined && eventId !== found)) {
        return { success: true as const, data: [], message: '' };
      }
      eventId = found;
    }
    const rows: CaptureRow[] = contest ? await teamCaptures(em, contest.id, teamId, eventId) : [];
    return { success: true as const, data: rows, message: '' };
  });

  // «Ver pantalla»: asks the team's agents for a capture now and waits for it (a long poll). One call
  // per team and machine at a time in this process: a second one joins the first.
  addRoute(app, capturesRoutes.view, async (request) => {
    const { teams_id: teamId, hostname = '' } = request.body;
    const key = `${teamId}\n${hostname}`;
    let pending = inFlight.get(key);
    if (!pending) {
      pending = viewScreen(teamId, hostname, request.staff!.id).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    const data = await pending;
    return { success: true as const, data, message: '' };
  });

  /** One «Ver pantalla» request: recorded, sent to the agents, its captures awaited. */
  async function viewScreen(teamId: number, hostname: string, userId: number): Promise<ViewScreenResult> {
    const em = app.orm.em.fork();
    const contest = await activeContest(em);
    if (!contest) throw new HttpError(409, MESSAGES.noActiveContest);
    if ((await em.count(Team, { id: teamId, contest: contest.id })) === 0) {
      throw new HttpError(404, MESSAGES.notFound);
    }
    const agents = app.io.of(AGENT_NAMESPACE);
    const sockets = await agents.in(teamRoom(teamId)).fetchSockets();
    if (sockets.length === 0) throw new HttpError(409, MESSAGES.captureNoMachine);
    const requestId = randomUUID();
    await insertRequest(em, { id: requestId, contestId: contest.id, teamId, hostname, userId });
    app.log.info({ teamId, hostname, userId, requestId }, 'ver pantalla');
    const payload: Parameters<AgentServerToClientEvents['agent.capture.request']>[0] = {
      request_id: requestId,
      ...(hostname ? { hostname } : {}),
    };
    // The agents' namespace carries the agent events; `app.io` is typed for the staff's.
    (agents.to(teamRoom(teamId)) as unknown as { emit: (event: string, body: unknown) => void }).emit(
      'agent.capture.request',
      payload,
    );
    const captures = await waiters.wait(requestId, {
      expected: hostname ? 1 : sockets.length,
      timeoutMs: VIEW_SCREEN_WAIT_MS,
      othersMs: VIEW_SCREEN_OTHERS_MS,
      pollMs: app.redis ? VIEW_POLL_MS : 0,
      read: () => requestCaptures(app.orm.em.fork(), requestId),
    });
    if (captures.length === 0) throw new HttpError(504, MESSAGES.captureTimedOut);
    return { request_id: requestId, captures };
  }
}
