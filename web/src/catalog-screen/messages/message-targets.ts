import { LEVEL_NAMES, type MessageTarget } from '@concurso/shared';
import type { SelectOption } from '../../ui/form/form-select-field';

// One collator for every call: building one is far slower than comparing.
const collator = new Intl.Collator('es', { numeric: true, sensitivity: 'base' });

/**
 * The 'Para' choices of a message: every team, each level, each team of the board; a
 * choice's value is `todos`, `nivel:<id>` or `equipo:<id>`. Pure, tested in Node.
 */
export function messageTargetOptions(teams: ReadonlyArray<{ id: number; name: string }>): SelectOption[] {
  return [
    { value: 'todos', label: 'Todos los equipos' },
    ...Object.entries(LEVEL_NAMES).map(([id, name]) => ({ value: `nivel:${id}`, label: `Nivel ${name}` })),
    ...[...teams]
      .sort((a, b) => collator.compare(a.name, b.name))
      .map((team) => ({ value: `equipo:${team.id}`, label: `Equipo ${team.name}` })),
  ];
}

/** A 'Para' value as the body of `POST /api/sendMessage` takes it (null for none chosen). */
export function messageTargetOf(value: string): { target: MessageTarget; id?: number } | null {
  if (value === 'todos') return { target: 'todos' };
  const [kind, id] = value.split(':');
  if ((kind === 'nivel' || kind === 'equipo') && Number.isSafeInteger(Number(id)) && Number(id) > 0) {
    return { target: kind, id: Number(id) };
  }
  return null;
}
