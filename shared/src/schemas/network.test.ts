import { describe, expect, it } from 'vitest';
import {
  NETWORK_MAX_DESTINATIONS,
  NETWORK_MESSAGES,
  destinationText,
  ipVersion,
  allowedSitesInputSchema,
  parseDestination,
} from './network.js';

describe('allowed sites of a contest', () => {
  it('reads host names, addresses and networks, with or without a port', () => {
    expect(parseDestination(' Docs.Python.org ')).toEqual({
      kind: 'host',
      host: 'docs.python.org',
      port: null,
    });
    expect(parseDestination('judge.example.com:443')).toEqual({
      kind: 'host',
      host: 'judge.example.com',
      port: 443,
    });
    expect(parseDestination('10.1.2.3:8080')).toEqual({
      kind: 'ip',
      address: '10.1.2.3',
      version: 4,
      port: 8080,
    });
    expect(parseDestination('10.0.0.0/8')).toEqual({
      kind: 'cidr',
      address: '10.0.0.0',
      prefix: 8,
      version: 4,
      port: null,
    });
    expect(parseDestination('2001:db8::1')).toEqual({
      kind: 'ip',
      address: '2001:db8::1',
      version: 6,
      port: null,
    });
    expect(parseDestination('[2001:db8::1]:443')).toEqual({
      kind: 'ip',
      address: '2001:db8::1',
      version: 6,
      port: 443,
    });
    expect(parseDestination('2001:db8::/32')).toEqual({
      kind: 'cidr',
      address: '2001:db8::',
      prefix: 32,
      version: 6,
      port: null,
    });
  });

  it('refuses what is none of them, in Spanish', () => {
    expect(parseDestination('')).toBe(NETWORK_MESSAGES.empty);
    expect(parseDestination('ejemplo.com:0')).toBe(NETWORK_MESSAGES.badPort);
    expect(parseDestination('ejemplo.com:70000')).toBe(NETWORK_MESSAGES.badPort);
    expect(parseDestination('10.0.0.0/33')).toBe(NETWORK_MESSAGES.badNetwork);
    expect(parseDestination('2001:db8::/129')).toBe(NETWORK_MESSAGES.badNetwork);
    expect(parseDestination('servidor')).toBe(NETWORK_MESSAGES.badHost);
    expect(parseDestination('-malo.com')).toBe(NETWORK_MESSAGES.badHost);
    expect(parseDestination('http://ejemplo.com/docs')).toBe(NETWORK_MESSAGES.noUrl);
    expect(parseDestination('docs.python.org/3/')).toBe(NETWORK_MESSAGES.noUrl);
    expect(parseDestination('[ejemplo.com]:443')).toBe(NETWORK_MESSAGES.badHost);
  });

  it('says precisely what is wrong with a line (the «Sitios permitidos» errors)', () => {
    // The machine itself is always allowed: a list never needs it.
    for (const local of [
      'localhost',
      'LocalHost:8080',
      'app.localhost',
      '127.0.0.1',
      '127.0.0.0/8',
      '[::1]:80',
      '::1',
    ])
      expect(parseDestination(local), local).toBe(NETWORK_MESSAGES.local);
    expect(NETWORK_MESSAGES.local).toMatch(/No hace falta permitir la propia máquina/);
    // A port range is not a bad port: ranges are not supported, say so.
    expect(parseDestination('omegaup.com:8000-8100')).toBe(NETWORK_MESSAGES.portRange);
    expect(parseDestination('10.1.2.3:20-21')).toBe(NETWORK_MESSAGES.portRange);
    expect(parseDestination('[2001:db8::1]:80-90')).toBe(NETWORK_MESSAGES.portRange);
    expect(NETWORK_MESSAGES.portRange).toBe(
      'Los rangos de puertos no se admiten: escriba un puerto (p. ej. omegaup.com:8080)',
    );
    // Two sites on one line.
    for (const line of ['a.com, b.com', 'a.com,b.com', 'a.com b.com', 'a.com;b.com'])
      expect(parseDestination(line), line).toBe(NETWORK_MESSAGES.oneSitePerLine);
    expect(NETWORK_MESSAGES.oneSitePerLine).toMatch(/^Escriba un sitio por línea/);
    // A mistyped address is not called a bad name.
    for (const address of ['300.1.2.3', '10.0.0.256', '10.1.2', '2001:db8:::1', '1:2:3:4:5:6:7:8:9'])
      expect(parseDestination(address), address).toBe(NETWORK_MESSAGES.badIp);
    expect(NETWORK_MESSAGES.badIp).toMatch(/^No es una dirección IP válida/);
    expect(parseDestination('300.0.0.0/8')).toBe(NETWORK_MESSAGES.badNetwork);
    // What was fine stays fine.
    expect(parseDestination('omegaup.com:8080')).toEqual({ kind: 'host', host: 'omegaup.com', port: 8080 });
    expect(parseDestination('128.0.0.1')).toMatchObject({ kind: 'ip', address: '128.0.0.1' });
  });

  it('tells IPv4 from IPv6 without node:net', () => {
    expect(['1.2.3.4', '::1', '::ffff:10.0.0.1', 'fe80::1:2', '1:2:3:4:5:6:7:8'].map(ipVersion)).toEqual([
      4, 6, 6, 6, 6,
    ]);
    expect(['1.2.3', '01.2.3.4', '1:2:3:4:5:6:7:8:9', '1::2::3', 'g::1'].map(ipVersion)).toEqual([
      0, 0, 0, 0, 0,
    ]);
  });

  it('stores each site in one form and refuses a repeated one or too many', () => {
    expect(
      allowedSitesInputSchema.parse({
        contests_id: 1,
        allowed_sites: ['Judge.Example.com:443', '[2001:db8::1]:443'],
      }),
    ).toEqual({
      contests_id: 1,
      allowed_sites: ['judge.example.com:443', '[2001:db8::1]:443'],
    });
    const repeated = allowedSitesInputSchema.safeParse({ contests_id: 1, allowed_sites: ['a.com', 'A.com'] });
    expect(repeated.success ? null : repeated.error.issues.map((i) => [i.path, i.message])).toEqual([
      [['allowed_sites', 1], NETWORK_MESSAGES.repeated],
    ]);
    const many = allowedSitesInputSchema.safeParse({
      contests_id: 1,
      allowed_sites: Array.from({ length: NETWORK_MAX_DESTINATIONS + 1 }, (_, i) => `s${i}.com`),
    });
    expect(many.success).toBe(false);
    // At most NETWORK_MAX_LIST_BYTES in all (an agent's config stays under 64 KB).
    const long = allowedSitesInputSchema.safeParse({
      contests_id: 1,
      allowed_sites: Array.from({ length: 100 }, (_, i) => `s${i}.${'x'.repeat(63)}.${'y'.repeat(20)}.org`),
    });
    expect(long.success ? null : long.error.issues.map((i) => [i.path, i.message])).toEqual([
      [['allowed_sites'], NETWORK_MESSAGES.tooLong],
    ]);
    expect(destinationText({ kind: 'cidr', address: '10.0.0.0', prefix: 8, version: 4, port: 22 })).toBe(
      '10.0.0.0/8:22',
    );
  });
});
