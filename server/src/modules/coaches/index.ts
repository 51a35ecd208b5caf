/**
 * The coaches module's public face: the coaches catalogue. app.ts registers what it
 * exports; another module imports it from here only (lint: boundaries/dependencies). The rest of
 * the folder is private to the module.
 */
export { Coach } from './coach.entity.js';
export { coachRows } from './coaches.repository.js';
export { default as coachesRoutes } from './coaches.routes.js';
