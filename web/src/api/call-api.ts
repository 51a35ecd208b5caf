import { routePath, type RouteArgs, type RouteReply, type RouteSpec } from '@concurso/shared';
import { apiRequest } from './api-client';

/** The item type of a list route's `data` (`okEnvelope(z.array(row))` in the shared map). */
export type ListItem<R extends RouteSpec> =
  RouteReply<R> extends { data: ReadonlyArray<infer Row> } ? Row : never;

/** What one call of a route sends: its declared params, query and body, plus the call's own options. */
type CallApiOptions<R extends RouteSpec> = RouteArgs<R> & {
  signal?: AbortSignal;
  /**
   * True for the calls of signing in and out (login, the login's own session check, logout): their 401
   * is about the credentials, so it does not end the session with 'Su sesión terminó'.
   */
  keepSessionOn401?: boolean;
};

/** The options argument: optional when the route declares no params, query or body. */
type OptionsArg<R extends RouteSpec> =
  Record<string, never> extends RouteArgs<R> ? [options?: CallApiOptions<R>] : [options: CallApiOptions<R>];

/**
 * Calls one route of the shared map (`shared/src/api`, docs/spec.md section 7): its method, and its path with
 * `params` filled in by `routePath` (plus `query` as a query string). The params, query and body a
 * route declares are required and typed by its schemas, and the answer is typed by its `reply` schema,
 * so a field renamed in `shared/` fails `npm run typecheck` wherever the web reads or sends it. The answer is
 * not re-validated: the server serializes it with the same schema.
 *
 * Errors are `apiRequest`'s: an `ApiRequestError` with the server's Spanish message (a 401 ends the
 * session first unless `keepSessionOn401`), or the browser's `AbortError` when `signal` aborts.
 * Multipart routes (uploads) go through `uploadRequest` instead, for their progress.
 */
export function callApi<R extends RouteSpec>(route: R, ...[options]: OptionsArg<R>): Promise<RouteReply<R>> {
  return callRoute(route, (options ?? {}) as RouteCallOptions) as Promise<RouteReply<R>>;
}

/** What {@link callRoute} sends, unchecked against the route. */
export interface RouteCallOptions {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  signal?: AbortSignal;
  keepSessionOn401?: boolean;
}

/**
 * {@link callApi} for code that picks its route at run time (a catalogue chosen by name), where
 * TypeScript cannot tie the arguments to one route: the caller types the answer from the map itself.
 */
export function callRoute(route: RouteSpec, options: RouteCallOptions): Promise<unknown> {
  const { params, query, body, signal, keepSessionOn401 } = options;
  return apiRequest<unknown>(withQuery(routePath(route, params), query), {
    method: route.method,
    body,
    signal,
    keepSessionOn401,
  });
}

/** `path` with the defined entries of `query` as its query string. */
function withQuery(path: string, query: Record<string, unknown> | undefined): string {
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
