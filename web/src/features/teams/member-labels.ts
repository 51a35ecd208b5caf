import { careerLabel, type CareerRow, type MemberRow } from '@concurso/shared';

/**
 * A career in the members' select: its name and its departament, as two departaments may share a name
 * (`careerLabel`, the form a registration file may use too).
 */
export function careerOptionLabel(row: Pick<CareerRow, 'name' | 'departament'>): string {
  return careerLabel(row.name, row.departament?.name);
}

/** A member's career as 'Ver integrantes' shows it: its name, or 'Sin carrera' (docs/spec.md section 2). */
export function memberCareerName(member: Pick<MemberRow, 'career'>): string {
  return member.career?.name || 'Sin carrera';
}
