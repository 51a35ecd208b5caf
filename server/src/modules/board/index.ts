/**
 * The board module's public face: the live board: its publisher plugin, its calls and
 * its rows. app.ts registers what it exports; another module imports it from here only (lint:
 * boundaries/dependencies). The rest of the folder is private to the module.
 */
export { default as boardPlugin } from './board.plugin.js';
export { default as boardRoutes } from './board.routes.js';
