/**
 * The processes module's public face: the catalogue of forbidden processes. app.ts registers what it
 * exports; another module imports it from here only (lint: boundaries/dependencies). The rest of the
 * folder is private to the module.
 */
export { Process } from './process.entity.js';
export { findOrCreateProcess, processById } from './processes.repository.js';
export { default as processesRoutes } from './processes.routes.js';
