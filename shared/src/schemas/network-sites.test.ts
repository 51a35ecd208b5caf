import { describe, expect, it } from 'vitest';
import { NETWORK_MAX_DESTINATIONS } from './network.js';
import { NETWORK_SITES_TEXTS, allowedHostNames, networkSitesInfoInputSchema } from './network-sites.js';

describe('what the contest form asks about its allowed sites', () => {
  it('is each host name of the lines once, lower-cased and without its port; addresses, networks and mistakes left out', () => {
    expect(
      allowedHostNames([
        'OmegaUp.com',
        'omegaup.com:443',
        '10.0.0.0/8',
        '200.1.2.3',
        '[2001:db8::1]:443',
        'docs.python.org',
        'http://mal.com/x',
        'a.com, b.com',
      ]),
    ).toEqual(['omegaup.com', 'docs.python.org']);
  });

  it('is bounded: at most a list’s length of host names, each a host name', () => {
    const hosts = Array.from({ length: NETWORK_MAX_DESTINATIONS }, (_, i) => `s${i}.ejemplo.com`);
    expect(networkSitesInfoInputSchema.safeParse({ hosts }).success).toBe(true);
    expect(networkSitesInfoInputSchema.safeParse({ hosts: [...hosts, 'uno-mas.com'] }).success).toBe(false);
    for (const bad of ['OMEGAUP.COM', 'a.com:443', 'a b.com', 'a'.repeat(254)])
      expect(networkSitesInfoInputSchema.safeParse({ hosts: [bad] }).success, bad).toBe(false);
  });

  it('says a shared name will be filtered by name, in Spanish with the name', () => {
    expect(NETWORK_SITES_TEXTS.shared('omegaup.com')).toBe(
      'omegaup.com comparte direcciones con otros sitios: se filtrará por nombre',
    );
  });
});
