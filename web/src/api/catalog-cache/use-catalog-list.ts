import { useEffect } from 'react';
import type { CatalogRows, ListCatalog } from '../catalog-api';
import { useCatalogStore, type CatalogList } from './catalog-store';

/**
 * The rows of a catalogue, loaded on mount and kept current by `catalog.changed` while the component is
 * mounted (the screen's own list and the lists of its selects alike).
 */
export function useCatalogList<K extends ListCatalog>(catalog: K): CatalogList<CatalogRows[K]> {
  useEffect(() => useCatalogStore.getState().subscribe(catalog), [catalog]);
  return useCatalogStore((state) => state.lists[catalog]) as CatalogList<CatalogRows[K]>;
}
