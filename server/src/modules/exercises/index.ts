/**
 * The exercises module's public face: exercises and their PDFs. app.ts registers what
 * it exports; another module imports it from here only (lint: boundaries/dependencies). The rest
 * of the folder is private to the module.
 */
export { exerciseUsages } from './exercises.repository.js';
export { default as exercisesRoutes } from './exercises.routes.js';
