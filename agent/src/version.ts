/** The agent's version (from its package.json, inlined when bundled by `npm run agent:pack`). */
import pkg from '../package.json' with { type: 'json' };

/** Version of this agent, e.g. `0.1.0`, sent with every heartbeat. */
export const AGENT_VERSION: string = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
