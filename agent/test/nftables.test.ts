import { describe, expect, it } from 'vitest';
import { NFT_TABLE, nftApplyScript, nftLiftScript } from '../src/network/nftables.js';
import type { ResolvedPolicy } from '../src/network/resolved-policy.js';
import { ssCutFilter } from '../src/network/socket-cut.js';

const POLICY: ResolvedPolicy = {
  server: { addresses: [{ address: '10.0.0.5', version: 4 }], port: 3000 },
  resolvers: [{ address: '10.0.0.53', version: 4 }],
  allowed: [
    { address: '203.0.113.7', version: 4, port: 443, host: 'docs.python.org' },
    { address: '203.0.113.8', version: 4, port: null, host: 'juez.prueba' },
    { address: '2001:db8::8', version: 6, port: 8443, host: 'juez.prueba' },
    { address: '198.51.100.0', version: 4, prefix: 24, port: null },
    { address: '2001:db8::1', version: 6, port: 22 },
    { address: '2001:db8:5::', version: 6, prefix: 48, port: null },
  ],
};
const DIVERT = { dnsPort: 40053, tlsPort: 40443, httpPort: 40080 };

/** The rules every script shares: what is never let out, and the input chain. */
const TAIL = [
  '\t\tct state related meta l4proto { icmp, ipv6-icmp } accept',
  '\t\tmeta l4proto tcp reject with tcp reset',
  '\t\treject with icmpx type admin-prohibited',
  '\t}',
  '\tchain input {',
  '\t\ttype filter hook input priority filter; policy drop;',
  '\t\tiif "lo" accept',
  '\t\tct state established,related accept',
  '\t\tip saddr 10.0.0.5 tcp sport 3000 accept',
  '\t\tudp sport 67 udp dport 68 accept',
  '\t\tudp sport 547 udp dport 546 accept',
  '\t\ticmpv6 type { nd-neighbor-solicit, nd-neighbor-advert, nd-router-advert, nd-redirect, mld-listener-query } accept',
  '\t\ticmp type { destination-unreachable, time-exceeded, parameter-problem } accept',
  '\t\ticmpv6 type { destination-unreachable, packet-too-big, time-exceeded, parameter-problem } accept',
  '\t}',
  '}',
  '',
];
const HEAD = [
  '\t\ttype filter hook output priority filter; policy drop;',
  '\t\toif "lo" accept',
  '\t\tfib daddr type local accept',
  '\t\tudp sport 68 udp dport 67 accept',
  '\t\tudp sport 546 udp dport 547 accept',
  '\t\ticmpv6 type { nd-neighbor-solicit, nd-neighbor-advert, nd-router-solicit, mld2-listener-report } accept',
];

describe("the agent's nftables scripts", () => {
  it('without the name filter: every destination by address, for everyone, and nothing established kept by default', () => {
    expect(nftApplyScript(POLICY)).toBe(
      [
        'table inet concurso {}',
        'delete table inet concurso',
        'table inet concurso {',
        '\tchain output {',
        ...HEAD,
        '\t\tip daddr 10.0.0.53 udp dport 53 accept',
        '\t\tip daddr 10.0.0.53 tcp dport 53 accept',
        '\t\tip daddr 10.0.0.5 tcp dport 3000 accept',
        '\t\tip daddr 203.0.113.7 meta l4proto { tcp, udp } th dport 443 accept',
        '\t\tip daddr 203.0.113.8 accept',
        '\t\tip6 daddr 2001:db8::8 meta l4proto { tcp, udp } th dport 8443 accept',
        '\t\tip daddr 198.51.100.0/24 accept',
        '\t\tip6 daddr 2001:db8::1 meta l4proto { tcp, udp } th dport 22 accept',
        '\t\tip6 daddr 2001:db8:5::/48 accept',
        ...TAIL,
      ].join('\n'),
    );
  });

  it("with the name filter: a contestant's DNS and web go to the agent, a name's web ports only for root", () => {
    expect(nftApplyScript(POLICY, DIVERT)).toBe(
      [
        'table inet concurso {}',
        'delete table inet concurso',
        'table inet concurso {',
        '\tchain divert {',
        '\t\ttype nat hook output priority -100; policy accept;',
        // The server and what the admin wrote as addresses stay address-based.
        '\t\tip daddr 10.0.0.5 return',
        '\t\tip daddr 198.51.100.0/24 return',
        '\t\tip6 daddr 2001:db8::1 meta l4proto { tcp, udp } th dport 22 return',
        '\t\tip6 daddr 2001:db8:5::/48 return',
        '\t\tmeta skuid != 0 udp dport 53 redirect to :40053',
        '\t\tmeta skuid != 0 tcp dport 53 redirect to :40053',
        '\t\tfib daddr type local return',
        '\t\tmeta skuid != 0 tcp dport 443 redirect to :40443',
        '\t\tmeta skuid != 0 tcp dport 80 redirect to :40080',
        '\t}',
        '\tchain output {',
        ...HEAD,
        // Only the agent asks the frozen resolvers.
        '\t\tmeta skuid 0 ip daddr 10.0.0.53 udp dport 53 accept',
        '\t\tmeta skuid 0 ip daddr 10.0.0.53 tcp dport 53 accept',
        '\t\tip daddr 10.0.0.5 tcp dport 3000 accept',
        '\t\tmeta skuid 0 ip daddr 203.0.113.7 tcp dport 443 accept',
        '\t\tmeta skuid 0 ip daddr 203.0.113.8 tcp dport { 80, 443 } accept',
        // A name with another port stays address-based on that port, for anyone.
        '\t\tip6 daddr 2001:db8::8 meta l4proto { tcp, udp } th dport 8443 accept',
        '\t\tip daddr 198.51.100.0/24 accept',
        '\t\tip6 daddr 2001:db8::1 meta l4proto { tcp, udp } th dport 22 accept',
        '\t\tip6 daddr 2001:db8:5::/48 accept',
        ...TAIL,
      ].join('\n'),
    );
  });

  it('lifts only its own table, and names no other', () => {
    expect(nftLiftScript()).toBe('table inet concurso {}\ndelete table inet concurso\n');
    const tables = [
      ...nftApplyScript({ server: { addresses: [], port: 80 }, resolvers: [], allowed: [] }, DIVERT).matchAll(
        /table (\w+) (\w+)/g,
      ),
    ];
    expect(new Set(tables.map((m) => `${m[1]} ${m[2]}`))).toEqual(new Set([`inet ${NFT_TABLE}`]));
  });

  it('cuts at once (ss -K) every TCP connection but to the machine itself and the allowed destinations', () => {
    expect(ssCutFilter(POLICY, DIVERT, [{ address: '192.0.2.10', version: 4 }])).toBe(
      '! ( dst 127.0.0.0/8 or dst [::1] or dst 192.0.2.10 or ( dst 10.0.0.5 and dport = :3000 ) or ' +
        '( dst 10.0.0.53 and dport = :53 ) or ( dst 203.0.113.7 and dport = :443 ) or ' +
        '( dst 203.0.113.8 and dport = :80 ) or ( dst 203.0.113.8 and dport = :443 ) or ' +
        '( dst [2001:db8::8] and dport = :8443 ) or dst 198.51.100.0/24 or ( dst [2001:db8::1] and dport = :22 ) or ' +
        'dst 2001:db8:5::/48 )',
    );
  });
});
