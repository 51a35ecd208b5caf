import { create } from 'content-disposition';

/**
 * `Content-Disposition: inline` with a file's own name ('Ver PDF': the browser saves the PDF
 * under the name it was uploaded with), written by jshttp's `content-disposition` (RFC 6266 / 8187,
 * what @fastify/static uses): an ASCII name as `filename=` (quoted when it must be), any other only
 * as `filename*=UTF-8''…` percent-encoded (`fallback: false`: no '?'-mangled ASCII copy; every
 * browser reads `filename*`).
 */
export function inlineDisposition(name: string): string {
  return create(name, { type: 'inline', fallback: false });
}
