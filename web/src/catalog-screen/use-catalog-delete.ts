import { useCallback } from 'react';
import { deleteCatalogRow, type ListCatalog } from '../api/catalog-api';
import { catalogListKey } from '../api/queries/catalog-queries';
import { useInvalidatingMutation } from '../api/queries/use-invalidating-mutation';
import { confirmedDelete } from './confirmed-delete';

/**
 * The delete flow of a catalogue row (docs/spec.md sections 4 and 8, see `confirmedDelete`); the list
 * refetches once the delete settles. `warning` adds what else goes with the row (a team's members and
 * attempts).
 */
export function useCatalogDelete(
  catalog: ListCatalog,
  warning?: string,
): (id: number, name?: string) => Promise<void> {
  const deleteRow = useInvalidatingMutation(
    (id: number) => deleteCatalogRow(catalog, id),
    () => catalogListKey(catalog),
  );
  return useCallback(
    async (id: number, name?: string) => {
      await confirmedDelete({ name, warning, what: `${catalog} ${id}`, remove: () => deleteRow(id) });
    },
    [catalog, warning, deleteRow],
  );
}
