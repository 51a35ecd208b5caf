/**
 * The captures module's public face: screen captures of the lab machines (README.md). app.ts
 * registers what it exports; another module imports it from here only (lint: boundaries/dependencies).
 * The rest of the folder is private to the module.
 */
export { Capture } from './capture.entity.js';
export { default as capturesRoutes } from './captures.routes.js';
export { screenViewRows } from './captures.repository.js';
export { captureFile, capturesDir } from './capture-files.js';
