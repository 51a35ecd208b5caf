/**
 * A tiny HTTP server that plays the agent endpoints' contract (docs/design.md section 6) for the agent's
 * tests: Bearer key check, config, idempotent attempts by event_id, heartbeat, and the public
 * `GET /api/health`, and `POST /api/agent/observed` (the config's `fingerprints` and
 * `observe` are set by the test). It can be taken away (port closed) and brought back on the same port. The real
 * server has its own end-to-end test.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as SocketServer } from 'socket.io';
import {
  AGENT_NAMESPACE,
  MESSAGES,
  SOCKET_PATH,
  agentCaptureSchema,
  agentAttemptsBodySchema,
  agentObservedBodySchema,
  type AgentAttempt,
  type AgentCapture,
  type AgentConfig,
  type AgentObservedProcess,
} from '@concurso/shared';

/**
 * How the next POST /api/agent/attempts fails: before storing, or after storing (lost answer); with
 * `errors`, the answer carries them (a 422's messages by field path).
 */
type AttemptsFailure = {
  status: number;
  when: 'before-store' | 'after-store';
  errors?: Record<string, string[]>;
  /** The answer's `message` (default: the real server's for a 422, a generic one otherwise). */
  message?: string;
  /** The answer's `Retry-After` header, in s. */
  retryAfterS?: number;
};

/** Why the server's validation refuses one attempt: the field and its message. */
type AttemptRefusal = { field: string; message: string };

export interface FakeServer {
  url: string;
  key: string;
  config: AgentConfig;
  /** Answer 401 to everything (key revoked). */
  revoked: boolean;
  /** Answer 404 to the config (no current contest). */
  noContest: boolean;
  /** Failures for the next attempts posts, consumed one per post. */
  attemptFailures: AttemptsFailure[];
  /**
   * Validation the real server does with its own clock (an `occurred_at` too far ahead or too old):
   * a post with any attempt this refuses is answered 422 with `errors` keyed
   * `attempts.<index>.<field>`, like the real server, and nothing of it is stored.
   */
  refuse: ((attempt: AgentAttempt) => AttemptRefusal | null) | null;
  /** Answer every attempts post with this status, without storing (server down); null: normal. */
  attemptsDown: number | null;
  /** What `GET /api/health` reports; 503 when either is down, like the real server. */
  health: { database: 'ok' | 'down'; redis: 'ok' | 'down' | 'off' };
  /** Health checks received. */
  healthCalls: number;
  /** Stored attempts by event id, in arrival order. */
  stored: Map<string, AgentAttempt>;
  /** Every attempts body received (batches), in order. */
  posts: AgentAttempt[][];
  heartbeats: { authorization: string | undefined; body: unknown }[];
  /** Every valid observed body received (`observed` rows), in order. */
  observedPosts: AgentObservedProcess[][];
  /** Answer every observed post with this status, storing nothing; null: normal. */
  observedDown: number | null;
  /** The `message` of those answers (default 'Servidor caído'), and their `Retry-After` (s), if any. */
  observedRefusal?: { message: string; retryAfterS?: number };
  configCalls: number;
  /**
   * Every valid `POST /api/agent/capture` stored, in order (one for an attempt not stored is answered
   * 404 `captureNotExpected`, like the real server, and not kept).
   */
  captures: AgentCapture[];
  /** Captures refused (an attempt not stored, or an invalid body). */
  capturesRefused: number;
  /**
   * Opens the agents' push channel (Socket.IO on `/agent`, no key check beyond the handshake's `key`);
   * off by default: an agent whose channel is up reads its config less often.
   */
  openPushChannel(): void;
  /** Sends `agent.capture.request` to every agent on the push channel; answers how many got it. */
  requestCapture(requestId: string): Promise<number>;
  /** Closes the port (connections refused), keeping the state. */
  goDown(): Promise<void>;
  /** Listens again on the same port. */
  comeBack(): Promise<void>;
  close(): Promise<void>;
}

/** The real server's message on a 422 (`MESSAGES.validation`). */
const VALIDATION = 'Por favor llene todos los campos correctamente';

const send = (res: ServerResponse, status: number, body: unknown, retryAfterS?: number) => {
  res.writeHead(status, {
    'content-type': 'application/json',
    ...(retryAfterS === undefined ? {} : { 'retry-after': String(retryAfterS) }),
  });
  res.end(JSON.stringify(body));
};

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : JSON.parse(text);
}

/** Starts the fake server on 127.0.0.1 and a free port. */
export async function startFakeServer(
  blocked: string[] = [],
  key = 'clave-de-prueba-123',
): Promise<FakeServer> {
  const state: Omit<
    FakeServer,
    'url' | 'goDown' | 'comeBack' | 'close' | 'openPushChannel' | 'requestCapture'
  > = {
    key,
    config: {
      team: { id: 7, name: 'Los Compiladores', levels_id: 2 },
      contest: {
        id: 3,
        calendar: '2026B',
        date: '2026-10-15',
        active: true,
        max_attempts: null,
        observe_processes: false,
        network_version: 0,
      },
      blocked,
      fingerprints: [],
      observe: false,
      poll_ms: 1000,
      heartbeat_ms: 10_000,
      network: { version: 0, allowed: [] },
      policy_version: '',
    },
    revoked: false,
    noContest: false,
    attemptFailures: [],
    refuse: null,
    attemptsDown: null,
    health: { database: 'ok', redis: 'off' },
    healthCalls: 0,
    stored: new Map(),
    posts: [],
    heartbeats: [],
    observedPosts: [],
    observedDown: null,
    configCalls: 0,
    captures: [],
    capturesRefused: 0,
  };

  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'GET' && req.url === '/api/health') {
        state.healthCalls += 1;
        const { database, redis } = state.health;
        const ok = database === 'ok' && redis !== 'down';
        return send(res, ok ? 200 : 503, { success: ok, data: { database, redis }, message: '' });
      }
      const authorization = req.headers.authorization;
      if (state.revoked || authorization !== `Bearer ${state.key}`) {
        return send(res, 401, { success: false, message: 'Clave de agente no válida o revocada.' });
      }
      if (req.method === 'GET' && req.url === '/api/agent/config') {
        state.configCalls += 1;
        if (state.noContest) return send(res, 404, { success: false, message: 'No hay concurso actual.' });
        return send(res, 200, { success: true, data: state.config, message: '' });
      }
      if (req.method === 'POST' && req.url === '/api/agent/heartbeat') {
        state.heartbeats.push({ authorization, body: await readBody(req) });
        return send(res, 200, { success: true, message: '' });
      }
      if (req.method === 'POST' && req.url === '/api/agent/observed') {
        const parsed = agentObservedBodySchema.safeParse(await readBody(req));
        if (!parsed.success) return send(res, 422, { success: false, message: VALIDATION, errors: {} });
        if (state.observedDown !== null) {
          const refusal = state.observedRefusal;
          if (refusal?.retryAfterS !== undefined) res.setHeader('retry-after', String(refusal.retryAfterS));
          return send(res, state.observedDown, {
            success: false,
            message: refusal?.message ?? 'Servidor caído',
          });
        }
        state.observedPosts.push(parsed.data.observed);
        return send(res, 200, { success: true, data: { stored: parsed.data.observed.length }, message: '' });
      }
      if (req.method === 'POST' && req.url === '/api/agent/capture') {
        const parsed = agentCaptureSchema.safeParse(await readBody(req));
        const known = parsed.success && (!parsed.data.event_id || state.stored.has(parsed.data.event_id));
        if (!parsed.success || !known) {
          state.capturesRefused += 1;
          return parsed.success
            ? send(res, 404, { success: false, message: MESSAGES.captureNotExpected })
            : send(res, 422, { success: false, message: VALIDATION, errors: {} });
        }
        state.captures.push(parsed.data);
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'POST' && req.url === '/api/agent/attempts') {
        const parsed = agentAttemptsBodySchema.safeParse(await readBody(req));
        if (!parsed.success) {
          const errors: Record<string, string[]> = {};
          for (const issue of parsed.error.issues)
            (errors[issue.path.join('.') || '_'] ??= []).push(issue.message);
          return send(res, 422, { success: false, message: VALIDATION, errors });
        }
        state.posts.push(parsed.data.attempts);
        if (state.attemptsDown !== null) {
          return send(res, state.attemptsDown, { success: false, message: 'Servidor caído' });
        }
        const refusals: Record<string, string[]> = {};
        parsed.data.attempts.forEach((attempt, index) => {
          const refusal = state.refuse?.(attempt);
          if (refusal) refusals[`attempts.${index}.${refusal.field}`] = [refusal.message];
        });
        if (Object.keys(refusals).length > 0) {
          return send(res, 422, { success: false, message: VALIDATION, errors: refusals });
        }
        const failure = state.attemptFailures.shift();
        if (failure?.when === 'before-store') {
          return send(
            res,
            failure.status,
            {
              success: false,
              message:
                failure.message ?? (failure.status === 422 ? VALIDATION : 'Algo salió mal en el servidor.'),
              ...(failure.errors ? { errors: failure.errors } : {}),
            },
            failure.retryAfterS,
          );
        }
        let counted = 0;
        for (const attempt of parsed.data.attempts) {
          if (!state.stored.has(attempt.event_id)) {
            state.stored.set(attempt.event_id, attempt);
            counted += 1;
          }
        }
        if (failure)
          return send(res, failure.status, { success: false, message: 'Algo salió mal en el servidor.' });
        return send(res, 200, {
          success: true,
          data: {
            accepted: parsed.data.attempts.map((a) => a.event_id),
            counted,
            number_attempts: state.stored.size,
          },
          message: 'Registrado',
        });
      }
      return send(res, 404, { success: false, message: 'No se encontró el recurso solicitado.' });
    })().catch(() => send(res, 500, { success: false, message: 'error' }));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fake = state as FakeServer;
  fake.url = `http://127.0.0.1:${port}`;
  fake.goDown = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  fake.comeBack = () =>
    new Promise<void>((resolve, reject) => {
      if (server.listening) return resolve();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  let push: SocketServer | null = null;
  fake.openPushChannel = () => {
    push ??= new SocketServer(server, { path: SOCKET_PATH });
    push.of(AGENT_NAMESPACE).use((socket, next) => {
      const { key: given } = socket.handshake.auth as { key?: unknown };
      next(given === state.key ? undefined : new Error('unauthorized'));
    });
  };
  fake.requestCapture = async (requestId) => {
    if (!push) return 0;
    const sockets = await push.of(AGENT_NAMESPACE).fetchSockets();
    for (const socket of sockets) socket.emit('agent.capture.request', { request_id: requestId });
    return sockets.length;
  };
  fake.close = async () => {
    await push?.close();
    push = null;
    await fake.goDown();
  };
  return fake;
}

/** A URL on which nothing listens (a port that was just freed). */
export async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
