/**
 * The members module's public face: a team's members. app.ts registers what it exports;
 * another module imports it from here only (lint: boundaries/dependencies). The rest of the folder
 * is private to the module.
 */
export { Member } from './member.entity.js';
export { findTakenCodes, insertMembers, memberUsages } from './members.repository.js';
export { moveMembersWithTeam } from './members.service.js';
export { default as membersRoutes } from './members.routes.js';
