/** The agent's version (from its package.json, inlined when bundled by `npm run agent:pack` / `agent:build`). */
import pkg from '../package.json' with { type: 'json' };

/** Version of this agent, e.g. `0.1.0`, sent with every heartbeat. */
export const AGENT_VERSION: string = typeof pkg.version === 'string' ? pkg.version : '0.0.0';

/** The commit `npm run agent:build` built from (scripts/build.ts defines it); undefined elsewhere. */
declare const __AGENT_COMMIT__: string | undefined;

/**
 * What `concurso-agent --version` prints: the version alone (`0.1.0`) when run from the sources or the
 * npm package, and for a single executable of `npm run agent:build` also which build it is:
 * `0.1.0 (win-x64, Node 20.20.2, a1b2c3d)`.
 */
export function agentBuild(): string {
  if (typeof __AGENT_COMMIT__ === 'undefined') return AGENT_VERSION;
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  return `${AGENT_VERSION} (${platform}-${process.arch}, Node ${process.versions.node}, ${__AGENT_COMMIT__})`;
}
