/**
 * How the agent's own connections to the contest server (client.ts, policy-socket.ts) find its
 * addresses (agent/README.md, «Sitios permitidos»). While a policy is in force the firewall lets the
 * agent reach the server's addresses the guard resolved, and DNS servers other than the frozen ones
 * not at all: a console user who points the machine at another DNS server mid-contest would leave the
 * server's name unresolvable through the system (getaddrinfo, the resolv.conf of the moment), and the
 * machine silent on the judges' board. So while the guard pins addresses they answer for the server's
 * host, without asking any DNS; otherwise the system resolves, as every program does.
 */
import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

/** The server's host (lower case, no brackets) and the addresses the firewall lets the agent reach. */
export interface PinnedServer {
  host: string;
  addresses: ReadonlyArray<{ address: string; version: 4 | 6 }>;
}

/**
 * A `dns.lookup`-shaped function (what `net.connect`'s `lookup` option, an `http.Agent` and undici's
 * `connect` take): `hostname` equal to `pinned()`'s host answers its addresses (in order; filtered by
 * `options.family`; all of them with `options.all`), on the next tick; any other name, or no pin, goes
 * to the system's `dns.lookup`. No address of the family asked fails with `ENOTFOUND`, as getaddrinfo.
 */
export function pinnedServerLookup(pinned: () => PinnedServer | null): LookupFunction {
  return (hostname, options, callback) => {
    const pin = pinned();
    if (pin === null || hostname.toLowerCase().replace(/\.$/, '') !== pin.host) {
      // The callback's `family` is optional in net's type, always given by dns.lookup.
      systemLookup(
        hostname,
        options,
        callback as (error: Error | null, address: string | LookupAddress[], family: number) => void,
      );
      return;
    }
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const found: LookupAddress[] = pin.addresses
      .filter((a) => family === 0 || a.version === family)
      .map((a) => ({ address: a.address, family: a.version }));
    process.nextTick(() => {
      if (found.length === 0)
        callback(
          Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
            code: 'ENOTFOUND',
            hostname,
          }),
          '',
        );
      else if (options.all) callback(null, found);
      else callback(null, found[0]!.address, found[0]!.family);
    });
  };
}
