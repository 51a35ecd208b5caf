/**
 * How an executable's file name is compared with a contest's blocked names (docs/design.md section 6): the
 * agent's matcher, the server's inventory (`blocked_as`) and the web's /procesosObservados
 * apply the same rule, so "is it blocked?" has one answer everywhere.
 */

/**
 * Normalises an executable name or path for comparison: the last path segment (either `/` or `\`
 * separates), trimmed, lower-case, without a trailing `.exe`.
 * `C:\Program Files\Discord\Discord.exe` and `/usr/bin/discord` both give `discord`.
 */
export function normaliseExecutableName(nameOrPath: string): string {
  const base = nameOrPath.split(/[\\/]/).pop() ?? '';
  return base
    .trim()
    .toLowerCase()
    .replace(/\.exe$/, '');
}
