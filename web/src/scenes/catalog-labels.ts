import { DEPARTAMENT_TYPES, type DepartamentRow } from '@concurso/shared';

/** TIPO of a departament (SPEC.md section 2): 'Interno' for 0, 'Externo' for anything else. */
export function departamentTypeLabel(type: number): string {
  return type === DEPARTAMENT_TYPES.internal ? 'Interno' : 'Externo';
}

/** The choices of the departament TIPO select. */
export const DEPARTAMENT_TYPE_OPTIONS = [
  { value: String(DEPARTAMENT_TYPES.internal), label: departamentTypeLabel(DEPARTAMENT_TYPES.internal) },
  { value: String(DEPARTAMENT_TYPES.external), label: departamentTypeLabel(DEPARTAMENT_TYPES.external) },
] as const;

/** A departament in the careers' select: its name and its school, as two schools may share a name. */
export function departamentOptionLabel(row: Pick<DepartamentRow, 'name' | 'school'>): string {
  return row.school?.name ? `${row.name} (${row.school.name})` : row.name;
}

const byName = new Intl.Collator('es', { sensitivity: 'base', numeric: true });

/** Rows as select options sorted by label, values as strings (what a native select holds). */
export function toOptions<T extends { id: number }>(rows: readonly T[], label: (row: T) => string) {
  return rows
    .map((row) => ({ value: String(row.id), label: label(row) }))
    .sort((a, b) => byName.compare(a.label, b.label));
}
