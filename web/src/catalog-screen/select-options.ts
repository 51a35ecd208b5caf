import type { LevelRow } from '@concurso/shared';

const byName = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

/** Rows as select options sorted by label, values as strings (what a native select holds). */
export function toOptions<T extends { id: number }>(rows: readonly T[], label: (row: T) => string) {
  return rows
    .map((row) => ({ value: String(row.id), label: label(row) }))
    .sort((a, b) => byName.compare(a.label, b.label));
}

/** Levels as select options in their own order (Básico, Intermedio, Avanzado), not alphabetically. */
export function levelOptions(rows: readonly LevelRow[]) {
  return [...rows].sort((a, b) => a.id - b.id).map((row) => ({ value: String(row.id), label: row.level }));
}
