/**
 * Pieces of the server that a measurement runs on their own (bench/ reaches the server only through
 * the test kit): the security headers plugin and helmet's options
 * (`npm run bench:headers`), the attempts group commit's work with the bare pool and transaction it
 * runs on (the load tester's mysql2 baseline runs the product's group, not a copy), and the contest
 * chain's verification (`npm run bench:chain`).
 */
export { HELMET_OPTIONS, default as securityHeaders } from '../../server/src/plugins/security-headers.js';
export { createSqlPool, placeholders, sqlBatchTransaction } from '../../server/src/db/sql.js';
export {
  ATTEMPT_GROUPS_AT_ONCE,
  MAX_GROUP_ATTEMPTS,
  writeAttemptGroup,
  type GroupedBatch,
} from '../../server/src/modules/agent/index.js';
export { verifyChain } from '../../server/src/modules/chain/index.js';
