import {
  DEPARTAMENT_TYPES,
  type CareerRow,
  type DepartamentRow,
  type LevelRow,
  type MemberRow,
} from '@concurso/shared';

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

/** A career in the members' select: its name and its departament, as two departaments may share a name. */
export function careerOptionLabel(row: Pick<CareerRow, 'name' | 'departament'>): string {
  return row.departament?.name ? `${row.name} (${row.departament.name})` : row.name;
}

/** Levels as select options in their own order (Básico, Intermedio, Avanzado), not alphabetically. */
export function levelOptions(rows: readonly LevelRow[]) {
  return [...rows].sort((a, b) => a.id - b.id).map((row) => ({ value: String(row.id), label: row.level }));
}

/** A member's career as 'Ver integrantes' shows it: its name, or 'Sin carrera' (SPEC.md section 2). */
export function memberCareerName(member: Pick<MemberRow, 'career'>): string {
  return member.career?.name || 'Sin carrera';
}
