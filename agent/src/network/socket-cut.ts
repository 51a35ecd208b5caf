/**
 * Best effort, right after a policy is put in force on Linux: ends at once the machine's TCP
 * connections to destinations outside it (`ss -K`, which needs root and a kernel with socket destroy),
 * instead of waiting for their next packet, which the rules refuse anyway (nftables.ts: no blanket
 * «established» accept). agent/README.md says what is guaranteed and what is best effort.
 */
import { execFile } from 'node:child_process';
import { networkInterfaces } from 'node:os';
import { WEB_PORTS } from './nftables.js';
import type { DivertPorts, ResolvedPolicy } from './resolved-policy.js';

/** Longest `ss -K` may take (ms): it is a few ms on a lab machine. */
const SS_TIMEOUT_MS = 3_000;

/** An address or network as `ss` reads it: an IPv6 address in brackets, but not an IPv6 network. */
const host = (address: string, version: 4 | 6, prefix?: number) =>
  prefix !== undefined ? `${address}/${prefix}` : version === 6 ? `[${address}]` : address;
const to = (target: string, port: number | null) =>
  port === null ? `dst ${target}` : `( dst ${target} and dport = :${port} )`;

/**
 * The `ss` filter of the connections to keep, negated: the machine itself (loopback and its own
 * addresses `local`), the server, the resolvers on 53, and every allowed destination (a name's web
 * ports too: the name filter's own connections, which ss cannot tell from a contestant's; the rules
 * refuse a contestant's at its next packet).
 */
export function ssCutFilter(
  policy: ResolvedPolicy,
  divert: DivertPorts | null,
  local: ReadonlyArray<{ address: string; version: 4 | 6 }>,
): string {
  const keep = [
    'dst 127.0.0.0/8',
    'dst [::1]',
    ...local.map((a) => `dst ${host(a.address, a.version)}`),
    ...policy.server.addresses.map((s) => to(host(s.address, s.version), policy.server.port)),
    ...policy.resolvers.map((r) => to(host(r.address, r.version), 53)),
    ...policy.allowed.flatMap((a) => {
      const target = host(a.address, a.version, a.prefix);
      if (divert !== null && a.host !== undefined && a.port === null)
        return WEB_PORTS.map((p) => to(target, p));
      return [to(target, a.port)];
    }),
  ];
  return `! ( ${keep.join(' or ')} )`;
}

/** The machine's own addresses (they are reached through loopback, which the rules always allow). */
function localAddresses(): Array<{ address: string; version: 4 | 6 }> {
  return Object.values(networkInterfaces())
    .flat()
    .filter((i) => i !== undefined)
    .map((i) => ({ address: i.address.replace(/%.*$/, ''), version: i.family === 'IPv6' ? 6 : 4 }) as const);
}

/**
 * Runs `ss -K` for the TCP connections outside `policy`. Never throws: a missing `ss`, a kernel
 * without socket destroy or a timeout leave them to the rules. Answers how long it took (ms).
 */
export function cutOutsiders(
  policy: ResolvedPolicy,
  divert: DivertPorts | null,
  ssPath = 'ss',
): Promise<number> {
  const started = performance.now();
  const filter = ssCutFilter(policy, divert, localAddresses());
  return new Promise((resolve) => {
    execFile(ssPath, ['-K', '-t', '-n', 'state', 'connected', filter], { timeout: SS_TIMEOUT_MS }, () =>
      resolve(performance.now() - started),
    );
  });
}
