/**
 * The health module's public face: the health check. app.ts registers what it exports;
 * another module imports it from here only (lint: boundaries/dependencies). The rest of the folder
 * is private to the module.
 */
export { default as healthRoutes } from './health.routes.js';
