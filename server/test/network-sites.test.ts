import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NETWORK_MAX_DESTINATIONS,
  NETWORK_SITES_LOOKUP_TIMEOUT_MS,
  networkSitesInfoSchema,
} from '@concurso/shared';
import { callAs, signInStaff, startTestServer, type TestServer } from '@concurso/testkit';
import { networkSitesInfo } from '../src/modules/contests/network-sites.js';

/**
 * What an allowed host name means on the lab machines, asked by the contest form while the admin edits
 * «Sitios permitidos» (`POST /api/networkSitesInfo`, admin only): each name's addresses by the server's
 * resolver (a fake one here: no test depends on the Internet's DNS) and whether they are a CDN's shared
 * ones.
 */
const ZONE: Record<string, string[]> = {
  // Cloudflare's 104.16.0.0/13 and 2606:4700::/32.
  'omegaup.com': ['104.16.132.229', '2606:4700::6810:84e5'],
  'juez.local.mx': ['10.0.7.80'],
  'espejo.ejemplo.com': ['200.1.2.3', '151.101.1.69'],
};
const asked: string[] = [];
const fakeLookup = async (host: string) => {
  asked.push(host);
  const addresses = ZONE[host];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses;
};

describe('what the allowed host names resolve to (POST /api/networkSitesInfo)', () => {
  let server: TestServer;
  let admin: string;
  let judge: string;
  const ask = (hosts: unknown, token = admin) =>
    callAs(server.app, token, '/api/networkSitesInfo', { hosts });

  beforeAll(async () => {
    server = await startTestServer({}, { siteLookup: fakeLookup });
    ({ admin, judge } = await signInStaff(server, 'sites'));
  });

  afterAll(async () => server?.close());

  it('answers an admin each name’s addresses and whether a CDN shares them', async () => {
    asked.length = 0;
    const res = await ask([
      'omegaup.com',
      'juez.local.mx',
      'espejo.ejemplo.com',
      'no-existe.ejemplo',
      'omegaup.com',
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(networkSitesInfoSchema.parse(res.body.data)).toEqual([
      {
        host: 'omegaup.com',
        addresses: ['104.16.132.229', '2606:4700::6810:84e5'],
        shared: true,
        provider: 'Cloudflare',
      },
      // A private address is nobody else's.
      { host: 'juez.local.mx', addresses: ['10.0.7.80'], shared: false, provider: null },
      // One of its addresses on Fastly is enough.
      {
        host: 'espejo.ejemplo.com',
        addresses: ['200.1.2.3', '151.101.1.69'],
        shared: true,
        provider: 'Fastly',
      },
      { host: 'no-existe.ejemplo', addresses: [], shared: false, provider: null },
    ]);
    // A repeated name is resolved once.
    expect(asked.sort()).toEqual(['espejo.ejemplo.com', 'juez.local.mx', 'no-existe.ejemplo', 'omegaup.com']);
  });

  it('refuses a judge and an anonymous caller, and resolves nothing for them', async () => {
    asked.length = 0;
    expect((await ask(['omegaup.com'], judge)).status).toBe(403);
    const anonymous = await server.app.inject({
      method: 'POST',
      url: '/api/networkSitesInfo',
      payload: { hosts: ['omegaup.com'] },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(asked).toEqual([]);
  });

  it('refuses a list longer than a contest’s and entries that are no host name, before resolving', async () => {
    asked.length = 0;
    const many = Array.from({ length: NETWORK_MAX_DESTINATIONS + 1 }, (_, i) => `s${i}.ejemplo.com`);
    for (const hosts of [many, ['OMEGAUP.COM'], ['omegaup.com:443'], ['a'.repeat(254)], 'omegaup.com']) {
      const res = await ask(hosts);
      expect(res.status, JSON.stringify(hosts).slice(0, 60)).toBe(422);
    }
    expect(asked).toEqual([]);
    // The longest list allowed is answered.
    const most = many.slice(0, NETWORK_MAX_DESTINATIONS);
    const res = await ask(most);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(NETWORK_MAX_DESTINATIONS);
  });
});

describe('a name whose resolver does not answer', () => {
  it('has no addresses once its time is up, and the others are answered meanwhile', async () => {
    const never = () => new Promise<string[]>(() => undefined);
    const lookup = (host: string) =>
      host === 'lento.ejemplo.com' ? never() : Promise.resolve(['104.16.1.1']);
    // A short limit stands in for NETWORK_SITES_LOOKUP_TIMEOUT_MS (2 s), so the test does not wait.
    expect(NETWORK_SITES_LOOKUP_TIMEOUT_MS).toBe(2_000);
    const info = await networkSitesInfo(['lento.ejemplo.com', 'rapido.ejemplo.com'], lookup, 50);
    expect(info).toEqual([
      { host: 'lento.ejemplo.com', addresses: [], shared: false, provider: null },
      { host: 'rapido.ejemplo.com', addresses: ['104.16.1.1'], shared: true, provider: 'Cloudflare' },
    ]);
  });
});
