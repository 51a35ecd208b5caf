/**
 * The REST contract (docs/spec.md section 7, docs/design.md section 4) as one typed map: the server registers
 * every route from it (server/src/lib/route.ts `addRoute`) and the web's client is typed by it
 * (web/src/api/call-api.ts `callApi`). One file per server module, named as the module.
 */
export * from './access.js';
export * from './route.js';
export * from './catalog.js';
export * from './catalogs.js';
export * from './contests.js';
export * from './processes.js';
export * from './teams.js';
export * from './members.js';
export * from './users.js';
export * from './auth.js';
export * from './exercises.js';
export * from './logs.js';
export * from './health.js';
export * from './board.js';
export * from './agent.js';
export * from './imports.js';
export * from './stats.js';
export * from './observed.js';
export * from './lab.js';
export * from './messages.js';
export * from './captures.js';
export * from './evidence.js';
