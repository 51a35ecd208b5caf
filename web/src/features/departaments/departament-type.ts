import { DEPARTAMENT_TYPES } from '@concurso/shared';

/** TIPO of a departament (docs/spec.md section 2): 'Interno' for 0, 'Externo' for anything else. */
export function departamentTypeLabel(type: number): string {
  return type === DEPARTAMENT_TYPES.internal ? 'Interno' : 'Externo';
}

/** The choices of the departament TIPO select. */
export const DEPARTAMENT_TYPE_OPTIONS = [
  { value: String(DEPARTAMENT_TYPES.internal), label: departamentTypeLabel(DEPARTAMENT_TYPES.internal) },
  { value: String(DEPARTAMENT_TYPES.external), label: departamentTypeLabel(DEPARTAMENT_TYPES.external) },
] as const;
