/**
 * Pieces of the server that a measurement runs on their own (bench/ reaches the server only through
 * the test kit, issue 11): the security headers plugin and helmet's options (issue 26,
 * `npm run bench:headers`), and the statements of the attempts group commit with the bare pool and
 * transaction they run on (issue 26: the load tester's mysql2 baseline runs these, not a copy).
 */
export { HELMET_OPTIONS, default as securityHeaders } from '../../server/src/plugins/security-headers.js';
export {
  createSqlPool,
  placeholders,
  sqlBatchTransaction,
  type SqlStatement,
} from '../../server/src/db/sql.js';
export {
  lockTeamContestsStatement,
  readTeamContests,
  storeAttemptsStatement,
  storedAttemptsStatement,
  type NewAttempt,
  type StoredAttempt,
} from '../../server/src/modules/agent/agent.repository.js';
export { ATTEMPT_GROUPS_AT_ONCE, MAX_GROUP_ATTEMPTS } from '../../server/src/modules/agent/attempt-writer.js';
export { addAttemptCountsStatement } from '../../server/src/modules/teams/team-row-writer.js';
export { boardRowsStatement, readBoardRows } from '../../server/src/modules/board/board.repository.js';
