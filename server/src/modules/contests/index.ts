/**
 * The contests module's public face: contests, their blocked processes and which one is
 * active. app.ts registers what it exports; another module imports it from here only (lint:
 * boundaries/dependencies). The rest of the folder is private to the module.
 */
export { ContestPermittedProcess } from './contest-permitted-process.entity.js';
export { ContestProcess } from './contest-process.entity.js';
export { Contest } from './contest.entity.js';
export { ContestNetworkChange } from './contest-network-change.entity.js';
export {
  activateContest,
  activeContest,
  addContestProcess,
  contestOrActive,
  contestProcesses,
  contestRow,
  contestUsages,
  isActiveContest,
} from './contests.repository.js';
export { default as contestsRoutes, type ContestsRoutesOptions } from './contests.routes.js';
export { contestIdFor } from './contests.service.js';
