/**
 * The fingerprints module's public face: the fingerprints of renamed copies of blocked programs, their
 * claims and denials. app.ts registers what it exports; another module imports it from here only
 * (lint: boundaries/dependencies). The rest of the folder is private to the module.
 */
export { default as fingerprintsRoutes } from './fingerprints.routes.js';
export {
  agentFingerprintsByTeam,
  inventoryFingerprints,
  recordBlockClaim,
  recordClaims,
} from './fingerprints.service.js';
export { fingerprintIdentity } from './process-fingerprints.repository.js';
export type { FingerprintClaim } from './process-fingerprints.repository.js';
