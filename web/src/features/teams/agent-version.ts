/** Inlined by Vite's `define` (web/vite.config.ts, and vitest.config.ts for the web tests). */
declare const __AGENT_VERSION__: string;

/**
 * The agent's version: the `version` of agent/package.json, the one `npm run agent:build` names its
 * files with (`concurso-agent-0.1.0-linux-x64`), read when the web is built. The key dialog names the
 * downloaded files with it, so the two always agree.
 */
export const AGENT_VERSION: string = __AGENT_VERSION__;
