/**
 * The chain module's public face: the contest's chained log (README.md). The writers of chained rows
 * append through it in their own transaction; the logs module verifies it; the evidence export reads
 * its head. Another module imports it from here only (lint: boundaries/dependencies). The rest of the
 * folder is private to the module.
 */
export { canonicalValue } from './chain-content.js';
export {
  activeChainHeadStatement,
  appendRowToChain,
  attemptChainStatements,
  autoincModeStatement,
  consecutiveIds,
  dropChain,
  lockChainHead,
  readChainHeads,
  type ChainedAttempt,
} from './chain.repository.js';
export { verifyChain } from './chain-verify.js';
/**
 * @public The pieces for writers still to come: `appendToChain` (a row's columns given, e.g. a screen
 * capture's) and `chainHead` (the head the contest's evidence export will carry).
 */
export { appendToChain, chainHead } from './chain.repository.js';
