/**
 * The catalogs module's public face: the pieces every catalogue module is built from.
 * app.ts registers what it exports; another module imports it from here only (lint:
 * boundaries/dependencies). The rest of the folder is private to the module.
 */
export { catalogRoutes } from './catalog-routes.js';
export type { CatalogRoutesOptions } from './catalog-routes.js';
export { catalogUsages } from './catalog-usages.js';
export type { CatalogUsage } from './catalog-usages.js';
export { catalogRows, requireExisting } from './catalog-rows.js';
export { describeUses, inUseMessage } from './in-use-message.js';
export type { Use } from './in-use-message.js';
