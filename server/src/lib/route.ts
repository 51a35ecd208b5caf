import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { RouteBody, RouteParams, RouteQuery, RouteReplyInput, RouteSpec } from '@concurso/shared';

/** The request a route's handler receives: params, query and body already validated by its schemas. */
type RouteRequest<R extends RouteSpec> = FastifyRequest & {
  params: RouteParams<R>;
  query: RouteQuery<R>;
  body: RouteBody<R>;
};

/** A route's handler: answers the 200 body, or throws `HttpError` (plugins/errors.ts maps the rest). */
export type RouteHandler<R extends RouteSpec> = (
  request: RouteRequest<R>,
  reply: FastifyReply,
) => Promise<RouteReplyInput<R>>;

/** Where app.ts mounts every module's routes; the map's paths include it. */
const API_PREFIX = '/api';

/**
 * Registers one call of the shared route map (shared/src/api) on `app`, which must sit under the
 * `/api` prefix: method, path, `config.access` (the guard fails closed without it), and the zod
 * schemas that validate the request, serialize the 200 answer and document it at /api/docs.
 * A `multipart` route is documented as such; its handler reads and validates the stream itself.
 * `config`: the server's own settings of the route (plugins/orm.ts `entityContext`), beside `access`.
 */
export function addRoute<R extends RouteSpec>(
  app: FastifyInstance,
  route: R,
  handler: RouteHandler<R>,
  config: Omit<NonNullable<RouteOptions['config']>, 'access'> = {},
): void {
  if (!route.path.startsWith(`${API_PREFIX}/`)) throw new Error(`Ruta fuera de /api: ${route.path}`);
  const options: RouteOptions = {
    method: route.method,
    url: route.path.slice(API_PREFIX.length),
    config: { ...config, access: route.access },
    schema: {
      tags: [route.tag],
      summary: route.summary,
      ...(route.params && { params: route.params }),
      ...(route.querystring && { querystring: route.querystring }),
      ...(route.body && { body: route.body }),
      ...(route.multipart && { consumes: ['multipart/form-data'] }),
      response: { ...route.replies, 200: route.reply },
    },
    handler: handler as unknown as RouteOptions['handler'],
  };
  app.route(options);
}
