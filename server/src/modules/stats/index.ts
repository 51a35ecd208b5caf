/**
 * The stats module's public face: a contest's statistics and report. app.ts registers
 * what it exports; another module imports it from here only (lint: boundaries/dependencies). The
 * rest of the folder is private to the module.
 */
export { default as statsRoutes } from './stats.routes.js';
