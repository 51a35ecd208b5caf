/**
 * The observed module's public face: what ran in the lab. app.ts registers what it
 * exports; another module imports it from here only (lint: boundaries/dependencies). The rest of
 * the folder is private to the module.
 */
export { default as observedRoutes } from './observed.routes.js';
