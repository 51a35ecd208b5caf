/**
 * One kind of row that uses a catalogue row and keeps it from being deleted (409, docs/design.md section 4):
 * how many there are and the noun, singular and plural: `[3, 'equipo', 'equipos']`.
 */
export type Use = readonly [count: number, one: string, many: string];

/** 'N departamento' / 'N departamentos'. */
function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The uses that count, joined: '2 equipos y 1 ejercicio'; '' when none counts. */
export function describeUses(uses: readonly Use[]): string {
  return uses
    .filter(([n]) => n > 0)
    .map(([n, one, many]) => plural(n, one, many))
    .join(' y ');
}

/**
 * Why a catalogue row cannot be deleted, or null when nothing uses it:
 * `inUseMessage('la escuela', [[2, 'departamento', 'departamentos']])` →
 * 'No se puede eliminar la escuela: la usan 2 departamentos.' The pronoun follows the article of
 * `thing` ('el nivel' → 'lo usan', 'la carrera' → 'la usan'). The 409 "in use" of docs/design.md section 4.
 */
export function inUseMessage(thing: string, uses: readonly Use[]): string | null {
  const described = describeUses(uses);
  if (!described) return null;
  const pronoun = thing.startsWith('la ') ? 'la' : 'lo';
  return `No se puede eliminar ${thing}: ${pronoun} usan ${described}.`;
}
