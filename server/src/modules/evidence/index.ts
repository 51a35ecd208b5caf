/**
 * The evidence module's public face: a team's evidence for a committee (README.md). app.ts registers
 * what it exports; no module imports it (it is the top layer). The rest of the folder is private to
 * the module.
 */
export { default as evidenceRoutes } from './evidence.routes.js';
