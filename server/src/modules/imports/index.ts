/**
 * The imports module's public face: bulk imports of teams and members. app.ts registers
 * what it exports; another module imports it from here only (lint: boundaries/dependencies). The
 * rest of the folder is private to the module.
 */
export { default as importsRoutes } from './imports.routes.js';
