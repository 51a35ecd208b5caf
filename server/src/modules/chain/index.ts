/**
 * The chain module's public face: the contest's chained log (README.md). The writers of chained rows
 * append through it in their own transaction; the logs module verifies it; the evidence export reads
 * its head. Another module imports it from here only (lint: boundaries/dependencies). The rest of the
 * folder is private to the module.
 */
export {
  CHAIN_KIND_SPECS,
  GENESIS_HASH,
  canonicalValue,
  type ChainKindSpec,
  type ChainValue,
} from './chain-content.js';
export {
  activeChainHeadStatement,
  appendRowToChain,
  appendToChain,
  attemptChainStatements,
  autoincModeStatement,
  consecutiveIds,
  chainHead,
  dropChain,
  lockChainHead,
  readChainHeads,
  type ChainHead,
  type ChainSql,
  type ChainedAttempt,
} from './chain.repository.js';
export { VERIFY_PAGE_ROWS, verifyChain } from './chain-verify.js';
