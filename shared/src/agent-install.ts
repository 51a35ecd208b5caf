/**
 * The lab's single executables of the agent (agent/README.md, «Antes del concurso»): the platforms
 * `npm run agent:build` makes and the name of each file. The build (agent/scripts/build.ts) and the
 * admin's key dialog (which says which downloaded file goes where) name the files with this one
 * function, so the two cannot drift apart.
 */

/** The platforms the agent is built for: `<os>-<arch>` as in the file names. */
export type AgentTarget = 'linux-x64' | 'win-x64';

/**
 * The file `npm run agent:build` writes for `target`: `concurso-agent-<version>-linux-x64` and
 * `concurso-agent-<version>-win-x64.exe` (`version`: the agent's package version, e.g. `0.1.0`).
 */
export function agentExecutableFile(version: string, target: AgentTarget): string {
  return `concurso-agent-${version}-${target}${target === 'win-x64' ? '.exe' : ''}`;
}
