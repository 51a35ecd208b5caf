/**
 * The careers module's public face: the careers catalogue. app.ts registers what it
 * exports; another module imports it from here only (lint: boundaries/dependencies). The rest of
 * the folder is private to the module.
 */
export { Career } from './career.entity.js';
export { careerRows, careerUsages } from './careers.repository.js';
export { default as careersRoutes } from './careers.routes.js';
