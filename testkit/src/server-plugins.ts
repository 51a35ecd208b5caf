/**
 * Pieces of the server that a measurement runs on their own (bench/ reaches the server only through
 * the test kit, issue 11): the security headers plugin and helmet's options (issue 26,
 * `npm run bench:headers`), and the statements of the attempts group commit with the bare pool and
 * transaction they run on (issue 26: the load tester's mysql2 baseline runs these, not a copy).
 */
export { HELMET_OPTIONS, default as securityHeaders } from '../../server/src/plugins/security-headers.js';
export { createSqlPool, sqlTransaction, type SqlRunner } from '../../server/src/db/sql.js';
export {
  lockTeamContests,
  storeAttempts,
  storedAttempts,
  type NewAttempt,
} from '../../server/src/modules/agent/agent.repository.js';
export { ATTEMPT_GROUPS_AT_ONCE, MAX_GROUP_ATTEMPTS } from '../../server/src/modules/agent/attempt-writer.js';
export { addAttemptCounts } from '../../server/src/modules/teams/team-row-writer.js';
export { boardRows } from '../../server/src/modules/board/board.repository.js';
