/**
 * Where an observed program ran (the server's «programa nuevo», docs/design.md section 6a: an unknown tool
 * is looked at while it runs, so the judges need the machine and the file): the executable's full path
 * as the process list gives it, cleaned like a name (shared's `withoutUnprintable`: no control or
 * invisible characters) and cut to `OBSERVED_PATH_MAX` characters. Never arguments or other files.
 */
import { OBSERVED_PATH_MAX, withoutUnprintable } from '@concurso/shared';
import type { RunningProcess } from './scanner.js';

/** `proc`'s executable path for the observed report, or undefined when the process list has none. */
export function observedPath(proc: Pick<RunningProcess, 'path'>): string | undefined {
  if (!proc.path) return undefined;
  let clean = withoutUnprintable(proc.path);
  if (clean.length > OBSERVED_PATH_MAX) {
    clean = clean.slice(0, OBSERVED_PATH_MAX);
    // Never end on half a surrogate pair.
    if (/[\uD800-\uDBFF]$/.test(clean)) clean = clean.slice(0, -1);
  }
  clean = clean.trim();
  return clean === '' ? undefined : clean;
}
