import { useQuery, type QueryKey } from '@tanstack/react-query';
import { CATALOG_ROUTES, LIST_SOURCES, type CatalogRows, type ListCatalog } from '../catalog-api';
import { listQuery, listQueryKey, type ListQuery } from './list-query';

/** The query key of a catalogue's list: `[LIST_SOURCES[list], path]` (the three user lists share `users`). */
export function catalogListKey(list: ListCatalog): QueryKey {
  return listQueryKey(LIST_SOURCES[list], CATALOG_ROUTES[list].list);
}

/** A catalogue's list as a query; its failure opens the list-failure dialog (docs/spec.md section 8). */
export function catalogListQuery<K extends ListCatalog>(list: K): ListQuery<CatalogRows[K]> {
  // The list route picked by name: its rows are typed by `CatalogRows`, derived from the same map.
  return listQuery(LIST_SOURCES[list], CATALOG_ROUTES[list].list, {
    failure: `No se pudo cargar la lista ${list}`,
    errorDialog: true,
  }) as ListQuery<CatalogRows[K]>;
}

/** One list as the screens read it. */
export interface CatalogList<T> {
  rows: T[];
  /** True once the first load answered (or failed). */
  loaded: boolean;
}

const NO_ROWS: never[] = [];

/**
 * The rows of a catalogue, loaded when the component mounts (again if it was loaded before) and kept
 * current while the app shell holds the push channel (`use-catalog-sync.ts`): the screen's own table
 * and the choices of its selects alike.
 */
export function useCatalogRows<K extends ListCatalog>(list: K): CatalogList<CatalogRows[K]> {
  const { data, isPending } = useQuery(catalogListQuery(list));
  return { rows: data ?? NO_ROWS, loaded: !isPending };
}
