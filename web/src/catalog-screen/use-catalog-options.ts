import { useMemo } from 'react';
import type { CatalogRows, ListCatalog } from '../api/catalog-api';
import { useCatalogRows } from '../api/queries/catalog-queries';
import type { SelectOption } from '../ui/form/form-select-field';
import { levelOptions, toOptions } from './select-options';

/**
 * Another catalogue's rows as the choices of a select, sorted by `label` (keep it stable: module
 * level). The list loads with the screen that calls it and follows `catalog.changed` like its table
 * (the same query: one fetch when both read it).
 */
export function useCatalogOptions<K extends ListCatalog>(
  catalog: K,
  label: (row: CatalogRows[K]) => string,
): SelectOption[] {
  const { rows } = useCatalogRows(catalog);
  return useMemo(() => toOptions(rows, label), [rows, label]);
}

/** The levels as the choices of a select, in their own order (Básico, Intermedio, Avanzado). */
export function useLevelOptions(): SelectOption[] {
  const { rows } = useCatalogRows('levels');
  return useMemo(() => levelOptions(rows), [rows]);
}
