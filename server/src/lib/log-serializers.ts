import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Fastify's logger options object (pino's), as `buildApp({ logger })` takes it. */
export type ServerLoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>;

/**
 * Query parameters whose values are secrets and never reach a log: the PDF link's `ticket`
 * (`GET /api/exercisePdf/{id}/{name}?ticket=…`), which opens one exercise's PDF for minutes.
 */
const SECRET_QUERY_PARAMS = ['ticket'];

/**
 * `url` with the values of `SECRET_QUERY_PARAMS` replaced by `[oculto]`:
 * `/api/exercisePdf/3/a.pdf?ticket=eyJ…` → `/api/exercisePdf/3/a.pdf?ticket=[oculto]`.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  const params = url
    .slice(query + 1)
    .split('&')
    .map((param) => {
      const name = decodeURIComponentSafe(param.split('=')[0] ?? '');
      return SECRET_QUERY_PARAMS.includes(name) ? `${param.split('=')[0]}=[oculto]` : param;
    });
  return `${url.slice(0, query)}?${params.join('&')}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * pino's request serializer for the server's logger: what Fastify logs of a request by default
 * (method, url, host, remote address and port) with the secrets of the query hidden (`redactUrl`).
 * pino's `redact` paths cannot reach inside a URL string, hence a serializer.
 */
function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The server's pino options (server.ts): `level`, secrets redacted from headers and bodies (the
 * bearer token, passwords) and from URLs (`requestSerializer`). Tests build the app with these to
 * check what a log line holds.
 */
export function serverLoggerOptions(level: string): ServerLoggerOptions {
  return {
    level,
    redact: ['req.headers.authorization', 'req.body.password'],
    serializers: { req: requestSerializer },
  };
}
