import type { DepartamentRow } from '@concurso/shared';

/** A departament in the careers' select: its name and its school, as two schools may share a name. */
export function departamentOptionLabel(row: Pick<DepartamentRow, 'name' | 'school'>): string {
  return row.school?.name ? `${row.name} (${row.school.name})` : row.name;
}
