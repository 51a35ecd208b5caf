/**
 * The departaments module's public face: the departaments catalogue. app.ts registers
 * what it exports; another module imports it from here only (lint: boundaries/dependencies). The
 * rest of the folder is private to the module.
 */
export { Departament } from './departament.entity.js';
export { departamentUsages } from './departaments.repository.js';
export { default as departamentsRoutes } from './departaments.routes.js';
