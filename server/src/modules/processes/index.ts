/**
 * The processes module's public face: forbidden processes and their fingerprints.
 * app.ts registers what it exports; another module imports it from here only (lint:
 * boundaries/dependencies). The rest of the folder is private to the module.
 */
export {
  agentFingerprintsByTeam,
  fingerprintIdentity,
  inventoryFingerprints,
  recordBlockClaim,
  recordClaims,
} from './process-fingerprints.repository.js';
export type { FingerprintClaim } from './process-fingerprints.repository.js';
export { Process } from './process.entity.js';
export { findOrCreateProcess } from './processes.repository.js';
export { default as processesRoutes } from './processes.routes.js';
