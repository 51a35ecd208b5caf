import { normaliseExecutableName } from '@concurso/shared';
import { executableName } from './executable-name.js';
import type { RunningProcess } from './scanner.js';

/**
 * Names one process instance: pid plus start time, so a pid reused later by another program is a
 * new instance. Without a start time (Windows) the executable name stands in for it.
 */
export function instanceKey(proc: RunningProcess): string {
  const since = proc.startTime
    ? String(proc.startTime.getTime())
    : normaliseExecutableName(executableName(proc));
  return `${proc.pid}@${since}`;
}
