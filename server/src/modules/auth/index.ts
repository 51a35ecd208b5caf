/**
 * The auth module's public face: sessions: login, the staff-session check the guard and
 * the socket use. app.ts registers what it exports; another module imports it from here only
 * (lint: boundaries/dependencies). The rest of the folder is private to the module.
 */
export { default as authRoutes } from './auth.routes.js';
export { activeSessionType, staffSessions } from './session.js';
