import { useCallback } from 'react';
import { deleteCatalogRow, type ListCatalog } from '../api/catalog-api';
import { useCatalogStore } from '../api/catalog-cache/catalog-store';
import { confirmedDelete } from './confirmed-delete';

/**
 * The delete flow of a catalogue row (SPEC.md sections 4 and 8, see `confirmedDelete`), then the list
 * reloads. `warning` adds what else goes with the row (a team's members and attempts).
 */
export function useCatalogDelete(
  catalog: ListCatalog,
  warning?: string,
): (id: number, name?: string) => Promise<void> {
  return useCallback(
    async (id: number, name?: string) => {
      await confirmedDelete({
        name,
        warning,
        what: `${catalog} ${id}`,
        remove: () => deleteCatalogRow(catalog, id),
        after: () => void useCatalogStore.getState().reload(catalog),
      });
    },
    [catalog, warning],
  );
}
