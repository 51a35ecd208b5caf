/**
 * The agent's typed errors. Their messages are one Spanish line, fit to print as they are; the CLI
 * never shows a stack trace.
 */

/** Why a call to the server failed. */
export type ApiErrorKind =
  /** 401: the key is wrong or was revoked (a new key was generated). */
  | 'unauthorized'
  /** No connection: refused, DNS, network down. */
  | 'unreachable'
  /** The server did not answer in time. */
  | 'timeout'
  /** 404: for the config, there is no current contest. */
  | 'not-found'
  /** Any other non-2xx answer (422, 429, 500, 503...). */
  | 'http'
  /** A 2xx answer whose body is not what the contract says. */
  | 'invalid-response';

/** A failed call to one of the agent endpoints. */
export class AgentApiError extends Error {
  override readonly name = 'AgentApiError';

  /** The `message` of the server's answer, or ''. */
  readonly serverMessage: string;
  /** The `errors` of the server's answer, when it had them (a 422's messages by field path). */
  readonly errors: Record<string, unknown> | undefined;
  /** A 429's `Retry-After`, in ms, when the server gave one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    /** HTTP status, when the server answered. */
    readonly status?: number,
    options?: {
      cause?: unknown;
      /** The `message` of the server's answer, when it had one. */
      serverMessage?: string;
      /** The `errors` of the server's answer (a 422's messages by field path), when it had them. */
      errors?: Record<string, unknown>;
      /** A 429's `Retry-After`, in ms. */
      retryAfterMs?: number;
    },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.serverMessage = options?.serverMessage ?? '';
    this.errors = options?.errors;
    this.retryAfterMs = options?.retryAfterMs;
  }

  /** True when retrying later may help without anyone changing anything (network, 5xx, 429). */
  get transient(): boolean {
    return (
      this.kind === 'unreachable' ||
      this.kind === 'timeout' ||
      (this.kind === 'http' && (this.status === undefined || this.status >= 500 || this.status === 429))
    );
  }
}

/** Why `startAgent` refused to start. */
export type AgentErrorCode =
  'invalid-options' | 'unauthorized' | 'unreachable' | 'no-contest' | 'server' | 'data-dir' | 'locked';

/** Thrown by `startAgent`: `message` is one Spanish line for the administrator. */
export class AgentError extends Error {
  override readonly name = 'AgentError';

  constructor(
    readonly code: AgentErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The Spanish message of any thrown value (no stack). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
