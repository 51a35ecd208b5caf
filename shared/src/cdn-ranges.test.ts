import { describe, expect, it } from 'vitest';
import { CDN_RANGES, addressInNetworks, sharedCdnOf } from './cdn-ranges.js';
import { parseDestination } from './schemas/network.js';

describe('a CDN’s shared addresses', () => {
  it('are found in each provider’s published ranges, IPv4 and IPv6, at their edges too', () => {
    expect(sharedCdnOf('104.16.132.229')).toBe('Cloudflare');
    expect(sharedCdnOf('2606:4700::6810:84e5')).toBe('Cloudflare');
    expect(sharedCdnOf('151.101.1.69')).toBe('Fastly');
    expect(sharedCdnOf('2a04:4e42::645')).toBe('Fastly');
    expect(sharedCdnOf('23.45.67.89')).toBe('Akamai');
    expect(sharedCdnOf('142.250.80.46')).toBe('Google');
    expect(sharedCdnOf('2607:f8b0:4004:c07::71')).toBe('Google');
    expect(sharedCdnOf('13.224.10.20')).toBe('Amazon CloudFront');
    expect(sharedCdnOf('2600:9000:2000::1')).toBe('Amazon CloudFront');
    expect(sharedCdnOf('13.107.246.40')).toBe('Azure Front Door');
    // 172.64.0.0/13: its first and last addresses, and the ones just outside.
    expect(sharedCdnOf('172.64.0.0')).toBe('Cloudflare');
    expect(sharedCdnOf('172.71.255.255')).toBe('Cloudflare');
    expect(sharedCdnOf('172.63.255.255')).toBeNull();
    expect(sharedCdnOf('172.72.0.0')).toBeNull();
  });

  it('are not private, loopback or other addresses, nor what is not an address', () => {
    for (const address of [
      '10.0.7.21',
      '192.168.1.10',
      '172.16.0.1',
      '127.0.0.1',
      '::1',
      'fd00::1',
      '200.1.2.3',
    ])
      expect(sharedCdnOf(address), address).toBeNull();
    for (const text of ['', 'omegaup.com', '104.16.1', '0x68.16.1.1', '104.16.1.1/24'])
      expect(sharedCdnOf(text), text).toBeNull();
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(sharedCdnOf('::ffff:104.16.1.1')).toBe('Cloudflare');
    expect(sharedCdnOf('::ffff:10.0.0.1')).toBeNull();
  });

  it('are matched on any list of networks, an address of one version never in the other’s', () => {
    expect(addressInNetworks('10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(addressInNetworks('11.1.2.3', ['10.0.0.0/8'])).toBe(false);
    expect(addressInNetworks('2001:db8::1', ['10.0.0.0/8', '2001:db8::/32'])).toBe(true);
    expect(addressInNetworks('10.1.2.3', ['::/0'])).toBe(false);
  });

  it('are listed as networks the allowed sites would accept, each once', () => {
    const all = CDN_RANGES.flatMap((ranges) => ranges.cidrs);
    expect(new Set(all).size).toBe(all.length);
    for (const cidr of all) expect(parseDestination(cidr), cidr).toMatchObject({ kind: 'cidr' });
    expect(CDN_RANGES.map((ranges) => ranges.provider)).toEqual([
      'Cloudflare',
      'Fastly',
      'Akamai',
      'Google',
      'Amazon CloudFront',
      'Azure Front Door',
    ]);
  });
});
