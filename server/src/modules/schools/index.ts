/**
 * The schools module's public face: the schools catalogue. app.ts registers what it
 * exports; another module imports it from here only (lint: boundaries/dependencies). The rest of
 * the folder is private to the module.
 */
export { School } from './school.entity.js';
export { default as schoolsRoutes } from './schools.routes.js';
