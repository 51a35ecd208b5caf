/**
 * Reads the host a plain HTTP/1.x request is for from its head (request line and header fields, up
 * to the empty line), for the name filter (agent/README.md, «Sitios web por nombre»). Pure; call
 * again with more bytes while the answer is `incomplete`.
 */
import { normalizeHostName } from './tls-client-hello.js';

/** What the bytes read so far say. */
export type HttpHostResult =
  | { kind: 'incomplete' }
  /** Not an HTTP/1.x request head, or one whose host is missing, repeated, ambiguous or too long. */
  | { kind: 'invalid'; reason: string }
  /** The host (lowercase, no trailing dot, no port). */
  | { kind: 'host'; host: string };

/** The name part of an authority `name[:port]`, normalized; null for an IP literal or a bad name. */
function hostOfAuthority(authority: string): string | null {
  const match = /^([^:@[\]/\s]+)(?::(\d{1,5}))?$/.exec(authority);
  return match ? normalizeHostName(match[1]!) : null;
}

/**
 * Parses the request head at the start of `data`.
 * @param maxBytes the most bytes the head may take; past it the answer is `invalid`.
 * The host is the `Host` field's; a request in absolute form (`GET http://name/ HTTP/1.1`) must name
 * the same host in its target, since a server reads the target first (RFC 9112 section 3.2.2); two
 * `Host` fields, a CONNECT, or a head without `Host` are invalid.
 */
export function parseHttpHost(data: Buffer, maxBytes = 16 * 1024): HttpHostResult {
  const bad = (reason: string): HttpHostResult => ({ kind: 'invalid', reason });
  const window = data.subarray(0, maxBytes);
  const text = window.toString('latin1');
  let end = text.indexOf('\r\n\r\n');
  const bareEnd = text.indexOf('\n\n');
  if (end < 0 || (bareEnd >= 0 && bareEnd < end)) end = bareEnd;
  if (end < 0) {
    // Say early when it cannot be a request, not only at the limit.
    const firstLine = text.split(/\r?\n/, 1)[0]!;
    if (!/^[A-Z]{0,20}( |$)/.test(firstLine)) return bad('not an HTTP request');
    return data.length >= maxBytes ? bad('request head too large') : { kind: 'incomplete' };
  }
  const lines = text.slice(0, end).split(/\r?\n/);
  const request = /^([A-Z]{1,20}) (\S+) HTTP\/1\.[01]$/.exec(lines[0]!);
  if (!request) return bad('not an HTTP/1.x request line');
  if (request[1] === 'CONNECT') return bad('CONNECT');
  const hosts: string[] = [];
  for (const line of lines.slice(1)) {
    // A folded line (obsolete) could hide a field: refused rather than read two ways.
    if (/^[ \t]/.test(line)) return bad('folded header line');
    const colon = line.indexOf(':');
    if (colon <= 0) return bad('malformed header line');
    if (line.slice(0, colon).toLowerCase() === 'host') hosts.push(line.slice(colon + 1).trim());
  }
  if (hosts.length !== 1) return bad(hosts.length === 0 ? 'no Host' : 'several Host fields');
  const host = hostOfAuthority(hosts[0]!);
  if (host === null) return bad('Host is not a name');
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(request[2]!);
  if (absolute && hostOfAuthority(absolute[1]!) !== host) return bad('target and Host differ');
  return { kind: 'host', host };
}
