/**
 * Pieces of the server that a measurement runs on their own (bench/ reaches the server only through
 * the test kit, issue 11): the security headers plugin and helmet's options (issue 26,
 * `npm run bench:headers`).
 */
export { HELMET_OPTIONS, default as securityHeaders } from '../../server/src/plugins/security-headers.js';
