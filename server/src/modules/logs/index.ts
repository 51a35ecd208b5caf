/**
 * The logs module's public face: the contest's logs. app.ts registers what it exports;
 * another module imports it from here only (lint: boundaries/dependencies). The rest of the folder
 * is private to the module.
 */
export { default as logsRoutes } from './logs.routes.js';
