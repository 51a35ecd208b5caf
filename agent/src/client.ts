/**
 * HTTP client of the agent endpoints (docs/design.md section 6). Every call carries
 * `Authorization: Bearer <key>`, has a timeout, validates the answer against the shared schemas,
 * and fails with an `AgentApiError` whose kind tells 401, network and other errors apart.
 */
import type { LookupFunction } from 'node:net';
import { hostname } from 'node:os';
import { Agent, type Dispatcher } from 'undici';
import {
  agentRoutes,
  healthRoutes,
  routePath,
  withoutUnprintable,
  type RouteSpec,
  agentAttemptsResultSchema,
  agentConfigSchema,
  agentObservedResultSchema,
  type AgentAttempt,
  type AgentAttemptsResult,
  type AgentCapture,
  type AgentConfig,
  type AgentHeartbeat,
  type AgentObservedProcess,
  type AgentObservedResult,
  type AgentStopped,
} from '@concurso/shared';
import { AgentApiError } from './errors.js';
import { TEXTS } from './texts.js';

/** The part of a zod schema the client uses (keeps zod out of the agent's own dependencies). */
interface Schema<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: unknown };
}

/** Default time one request may take, connection included (ms). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

/** Longest wait for one probe of `GET /api/health` (ms): a hung probe would delay noticing the server. */
const PROBE_TIMEOUT_MS = 2_000;

export interface AgentClientOptions {
  /** Base URL of the server, as `normaliseServerUrl` returns it. */
  server: string;
  /** The team's agent key. */
  key: string;
  /** Time one request may take (ms). Default `DEFAULT_REQUEST_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** Aborts every request in flight when fired (the agent stopping). */
  signal?: AbortSignal;
  /** Replaces the global fetch (tests). */
  fetch?: typeof fetch;
  /**
   * Finds the server's addresses for each new connection (`dns.lookup`'s shape; the network guard's
   * `serverLookup`: while a policy is in force, the addresses its rules let through). Default: the system's.
   */
  lookup?: LookupFunction;
}

/**
 * Turns what an administrator typed into a base URL: `http://` is assumed when no scheme is given
 * and a trailing slash is dropped. Answers null when it is not an http(s) URL.
 */
export function normaliseServerUrl(server: string): string | null {
  const trimmed = server.trim();
  if (trimmed === '') return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Client of `/api/agent/*` for one server and key. */
export class AgentClient {
  readonly server: string;
  private readonly key: string;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly signal: AbortSignal | undefined;
  /** The connections of every request, with `options.lookup` (none: fetch's global dispatcher). */
  private readonly dispatcher: Dispatcher | undefined;

  constructor(options: AgentClientOptions) {
    this.server = options.server;
    this.key = options.key;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.fetchImpl = options.fetch ?? fetch;
    this.signal = options.signal;
    // undici's Agent is the one Node's fetch takes as `dispatcher`; without TCP keep-alive probes, as
    // the CLI's global dispatcher (cli.ts: Wine refuses them on a socket still connecting).
    this.dispatcher = options.lookup
      ? new Agent({ connect: { keepAlive: false, lookup: options.lookup } })
      : undefined;
  }

  /** `GET /api/agent/config`: team, its contest, blocked names (none unless the contest is active), periods. */
  getConfig(): Promise<AgentConfig> {
    return this.call(agentRoutes.config, undefined, agentConfigSchema);
  }

  /** `POST /api/agent/attempts` with up to `AGENT_MAX_BATCH` attempts; idempotent by `event_id`. */
  postAttempts(attempts: readonly AgentAttempt[]): Promise<AgentAttemptsResult> {
    return this.call(agentRoutes.attempts, { attempts }, agentAttemptsResultSchema);
  }

  /**
   * `POST /api/agent/observed` with up to `AGENT_MAX_OBSERVED_BATCH` executables that
   * started on the machine (file name, fingerprint, first and last start, how many starts). Answers
   * how many rows the server stored (0 when the contest does not observe). With the machine's host
   * name (at most 255 characters), where a «programa nuevo» ran.
   */
  postObserved(observed: readonly AgentObservedProcess[]): Promise<AgentObservedResult> {
    return this.call(
      agentRoutes.observed,
      { observed, hostname: withoutUnprintable(hostname()).slice(0, 255) },
      agentObservedResultSchema,
    );
  }

  /**
   * `POST /api/agent/capture`: one screen capture (capture-uploads.ts), for a stored attempt
   * (`event_id`) or a judge's request (`request_id`). The server answers 204; a refusal (404 not
   * expected, 400, 413, 409) is an `AgentApiError` that is not transient.
   */
  async postCapture(body: AgentCapture): Promise<void> {
    await this.call(agentRoutes.capture, body, null);
  }

  /** `POST /api/agent/heartbeat`: keeps the team's `agent_online` true on the board. */
  async heartbeat(body: AgentHeartbeat): Promise<void> {
    await this.call(agentRoutes.heartbeat, body, null);
  }

  /**
   * `POST /api/agent/stopped`: the agent is stopping the documented way, so the judges see
   * «Agente detenido» instead of the silent agent's alert; `body.hostname` names its machine
   * (presence per machine, docs/design.md section 6a).
   */
  async stopped(body: AgentStopped = {}): Promise<void> {
    await this.call(agentRoutes.stopped, body, null);
  }

  /**
   * `GET /api/health`, the server's public health check, as a cheap "is the server back?" probe
   * while attempts wait out a backoff. Sends no key (the route is anonymous, and a probe proves
   * nothing). Answers true when the server answers and says its database is reachable: 200, or a 503
   * whose body says `database: "ok"` (only Redis is down: attempts are stored in MySQL and the
   * screens refetch the board when Redis returns). A 503 with the database down answers false: the
   * process is up but would refuse the attempts, and sending then would only grow the backoff.
   * Any other answer, no answer, or more than `PROBE_TIMEOUT_MS` answers false. Never throws.
   */
  async probe(): Promise<boolean> {
    try {
      const timeout = AbortSignal.timeout(Math.min(this.timeoutMs, PROBE_TIMEOUT_MS));
      const response = await this.fetchImpl(`${this.server}${routePath(healthRoutes.check)}`, {
        method: healthRoutes.check.method,
        headers: { accept: 'application/json' },
        signal: this.signal ? AbortSignal.any([this.signal, timeout]) : timeout,
        ...this.through(),
      });
      const payload = safeJson(await response.text());
      if (response.status === 200) return true;
      if (response.status !== 503 || !payload || typeof payload !== 'object') return false;
      const data = (payload as { data?: { database?: unknown } }).data;
      return data?.database === 'ok';
    } catch {
      return false;
    }
  }

  /**
   * One call of the shared route map (`agentRoutes`, as the web's `callApi` does: a path or method
   * changed there changes here), `data` of its answer checked by `schema` (null: nothing to read).
   */
  private async call<T>(route: RouteSpec, body: unknown, schema: Schema<T> | null): Promise<T> {
    let response: Response;
    let payload: unknown;
    try {
      response = await this.fetchImpl(`${this.server}${routePath(route)}`, {
        method: route.method,
        headers: {
          authorization: `Bearer ${this.key}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: this.signal
          ? AbortSignal.any([this.signal, AbortSignal.timeout(this.timeoutMs)])
          : AbortSignal.timeout(this.timeoutMs),
        ...this.through(),
      });
      const text = await response.text();
      payload = text === '' ? undefined : safeJson(text);
    } catch (error) {
      throw this.networkError(error);
    }

    const message = messageOf(payload);
    if (response.status === 401) {
      throw new AgentApiError('unauthorized', TEXTS.keyInvalid, 401);
    }
    // Only the contract's own 404 means "no current contest"; any other 404 is a wrong address.
    if (response.status === 404 && isContractFailure(payload)) {
      throw new AgentApiError('not-found', message || TEXTS.noContest, 404);
    }
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new AgentApiError('http', TEXTS.serverError(response.status, message), response.status, {
        serverMessage: message,
        errors: errorsOf(payload),
        ...(response.status === 429 && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
      });
    }
    if (schema === null) return undefined as T;
    const data = schema.safeParse(
      payload && typeof payload === 'object' ? (payload as { data?: unknown }).data : undefined,
    );
    if (!data.success) {
      throw new AgentApiError('invalid-response', TEXTS.invalidResponse(response.status), response.status, {
        cause: data.error,
      });
    }
    return data.data;
  }

  /** The request option that sends it through `dispatcher` (Node's fetch reads it; not in the DOM's type). */
  private through(): RequestInit {
    return this.dispatcher ? ({ dispatcher: this.dispatcher } as RequestInit) : {};
  }

  private networkError(error: unknown): AgentApiError {
    const name = (error as { name?: string } | null)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      return new AgentApiError('timeout', TEXTS.timeout(this.server), undefined, { cause: error });
    }
    return new AgentApiError('unreachable', TEXTS.unreachable(this.server), undefined, { cause: error });
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Whether a body is the contract's `{ success: false, ... }`. */
function isContractFailure(payload: unknown): boolean {
  return !!payload && typeof payload === 'object' && (payload as { success?: unknown }).success === false;
}

/** The `errors` of the contract's `{ success: false, message, errors }` answers, when it is an object. */
function errorsOf(payload: unknown): Record<string, unknown> | undefined {
  if (!payload || typeof payload !== 'object' || !('errors' in payload)) return undefined;
  const errors = (payload as { errors: unknown }).errors;
  return errors && typeof errors === 'object' && !Array.isArray(errors)
    ? (errors as Record<string, unknown>)
    : undefined;
}

/** The `message` of the contract's `{ success, message }` answers, or ''. */
function messageOf(payload: unknown): string {
  if (payload && typeof payload === 'object' && 'message' in payload) {
    const message = (payload as { message: unknown }).message;
    if (typeof message === 'string') return message;
  }
  return '';
}
