/**
 * The levels module's public face: the levels catalogue. app.ts registers what it
 * exports; another module imports it from here only (lint: boundaries/dependencies). The rest of
 * the folder is private to the module.
 */
export { Level } from './level.entity.js';
export { knownLevels, levelRows } from './levels.repository.js';
export { default as levelsRoutes } from './levels.routes.js';
