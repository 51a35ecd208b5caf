import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's options for every answer (docs/design.md section 8). The CSP: the web is a bundle of files, no
 * inline script runs; Chakra UI (emotion) writes <style> tags, so styles may be inline; a PDF opens in
 * a tab as a blob: URL, which keeps this policy.
 */
export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'self'", 'blob:'],
      frameSrc: ["'self'", 'blob:'],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      // Helmet's default would send every request of a page served over plain HTTP (a lab server at
      // http://192.168.x.x:3000) to https://, where nothing listens: the web would not load.
      upgradeInsecureRequests: null,
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  // HSTS only when the request came over TLS (the hook below): on a lab's plain-HTTP server it would
  // only break the next visit.
  strictTransportSecurity: false,
};

/** HSTS, sent only when the request came over TLS (as a trusted proxy says, `TRUST_PROXY`). */
const HSTS = 'max-age=15552000; includeSubDomains';

/**
 * The headers helmet writes with `options`, computed once by running its middleware against a
 * stand-in answer: none of them depends on the request (no CSP nonces). Lower-case names.
 * @throws when helmet writes no Content-Security-Policy (the options would be wrong).
 */
function helmetHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, response as never, (error?: unknown) => {
    if (error) throw error;
  });
  if (!headers['content-security-policy']) throw new Error('helmet wrote no Content-Security-Policy');
  return headers;
}

/**
 * Security headers on every answer: helmet's (`HELMET_OPTIONS`), and HSTS only over TLS as a trusted
 * proxy says (`TRUST_PROXY`).
 *
 * Why: @fastify/helmet built helmet's middleware again for every request and its CSP parsed the
 * directives each time (2.7 % of the server's busy time at 2,000 attempts/s, bench/BENCHMARKS.md "Where
 * the server's time goes"). The headers depend on nothing of the request, so helmet computes them once
 * at start and each answer gets the same constant object.
 */
async function securityHeaders(app: FastifyInstance): Promise<void> {
  const headers = helmetHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
}

export default fp(securityHeaders, { name: 'security-headers' });
