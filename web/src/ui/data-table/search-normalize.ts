import type { FilterFn } from '@tanstack/react-table';

/**
 * A text as the search box compares it: decomposed (NFD), without diacritics, lower case and trimmed,
 * so 'ingenieria' finds 'Ingeniería' and 'CAMARA' finds 'Cámara'. 'ñ' becomes 'n' like the rest.
 */
export function normalizeForSearch(value: unknown): string {
  if (value === null || value === undefined) return '';
  return (
    String(value)
      .normalize('NFD')
      // Combining marks (U+0300..U+036F) are the accents NFD split off their letters.
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .trim()
  );
}

/**
 * The table's global filter: a cell matches when its normalised text contains the normalised search.
 * TanStack calls it per row and searchable column and keeps the row when any column matches;
 * `resolveFilterValue` normalises the search once per filtering pass instead of once per cell.
 */
export const accentInsensitiveFilter: FilterFn<unknown> = (row, columnId, search: string) =>
  normalizeForSearch(row.getValue(columnId)).includes(search);

accentInsensitiveFilter.resolveFilterValue = (search: unknown) => normalizeForSearch(search);
