import type { QueryFunctionContext, QueryKey, QueryMeta } from '@tanstack/react-query';
import type { CatalogName, RouteArgs, RouteSpec } from '@concurso/shared';
import { callRoute, type ListItem } from '../call-api';
import { listRows, type ListEnvelope } from './list-errors';

/** A list read as TanStack Query runs it: `useQuery(query)`, `queryClient.fetchQuery(query)`. */
export interface ListQuery<T> {
  queryKey: QueryKey;
  queryFn: (context: QueryFunctionContext) => Promise<T[]>;
  meta: QueryMeta;
}

/**
 * The query key of a list route: `[source, path]`, plus the path's parameters when it has some.
 * `source` comes first: the catalogue whose `catalog.changed` makes the list stale (or one whose names
 * it embeds, `staleCatalogs`), so `invalidateQueries({ queryKey: [source] })` reaches every list it
 * feeds (`catalog-sync.ts`).
 */
export function listQueryKey(source: CatalogName, route: RouteSpec, params?: object): QueryKey {
  return params === undefined ? [source, route.path] : [source, route.path, params];
}

/** How a list query's failure is reported (`query-client.ts`). */
export interface ListFailure {
  /** The console line of a failed load, Spanish: 'No se pudieron cargar los integrantes del equipo'. */
  failure: string;
  /** True when the failure is the screen's dialog of docs/spec.md section 8 (the catalogue lists). */
  errorDialog?: boolean;
}

/**
 * The rows of a list route of the shared map (`GET` answering `okEnvelope(z.array(row))`), typed by
 * it, as a query keyed by {@link listQueryKey}. An answer with `success: false` fails the query with a
 * `ListWarning` (docs/spec.md section 8); the call is aborted when the query is cancelled (a newer fetch,
 * the session's end).
 */
export function listQuery<R extends RouteSpec>(
  source: CatalogName,
  route: R,
  options: ListFailure & { params?: RouteArgs<R>['params'] },
): ListQuery<ListItem<R>> {
  const { params, ...meta } = options;
  return {
    queryKey: listQueryKey(source, route, params ?? undefined),
    // The route's reply schema is `okEnvelope(z.array(row))`: ListItem<R> is its row.
    queryFn: ({ signal }) =>
      callRoute(route, { params: params ?? undefined, signal }).then((answer) =>
        listRows(answer as ListEnvelope<ListItem<R>>),
      ),
    meta,
  };
}
