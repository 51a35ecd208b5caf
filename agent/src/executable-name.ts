/**
 * The executable file name of a process: the basename of its path when known, else its name.
 * The path wins because `name` can be truncated or renamed by the process itself. Its own file so
 * the matcher, the killer and program-of.ts can all use it without importing one another in a circle.
 */
export function executableName(proc: { name: string; path?: string }): string {
  const fromPath = proc.path ? (proc.path.split(/[\\/]/).pop() ?? '') : '';
  return fromPath.trim() !== '' ? fromPath : proc.name;
}
