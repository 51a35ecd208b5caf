/**
 * The users module's public face: staff and participants. app.ts registers what it
 * exports; another module imports it from here only (lint: boundaries/dependencies). The rest of
 * the folder is private to the module.
 */
export { User } from './user.entity.js';
export { default as usersRoutes } from './users.routes.js';
