/**
 * The agent module's public face: the agent's calls, its key cache, its push channel
 * and presence sweeper. app.ts registers what it exports; another module imports it from here only (lint:
 * boundaries/dependencies). The rest of the folder is private to the module.
 */
export { heartbeatMsFor } from './agent-config.js';
export { default as agentChannelPlugin } from './agent-channel.plugin.js';
export { default as agentKeysPlugin } from './agent-keys.plugin.js';
export { default as agentPresencePlugin } from './agent-presence.js';
export { default as agentRoutes } from './agent.routes.js';
export { AGENT_SQL_CONNECTIONS, ATTEMPT_GROUPS_AT_ONCE, MAX_GROUP_ATTEMPTS } from './attempt-writer.js';
export { writeAttemptGroup, type GroupedBatch } from './attempt-group.js';
export { AgentEvent } from './agent-event.entity.js';
export { AgentMachine } from './agent-machine.entity.js';
export { Attempt } from './attempt.entity.js';
