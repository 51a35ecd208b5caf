import { describe, expect, it } from 'vitest';
import { NFT_TABLE, nftApplyScript, nftLiftScript } from '../src/network/nftables.js';

describe("the agent's nftables scripts (issue 25)", () => {
  it('replaces its own table whole, dropping new outbound traffic but what the policy allows', () => {
    const script = nftApplyScript({
      server: { addresses: [{ address: '10.0.0.5', version: 4 }], port: 3000 },
      resolvers: [{ address: '10.0.0.53', version: 4 }],
      allowed: [
        { address: '203.0.113.7', version: 4, port: 443 },
        { address: '198.51.100.0', version: 4, prefix: 24, port: null },
        { address: '2001:db8::1', version: 6, port: null },
      ],
    });
    expect(script).toBe(
      [
        'table inet concurso {}',
        'delete table inet concurso',
        'table inet concurso {',
        '\tchain output {',
        '\t\ttype filter hook output priority filter; policy drop;',
        '\t\toif "lo" accept',
        '\t\tct state established,related accept',
        '\t\tudp dport { 67, 547 } accept',
        '\t\ticmpv6 type { nd-neighbor-solicit, nd-neighbor-advert, nd-router-solicit, mld2-listener-report } accept',
        '\t\tip daddr 10.0.0.53 udp dport 53 accept',
        '\t\tip daddr 10.0.0.53 tcp dport 53 accept',
        '\t\tip daddr 10.0.0.5 tcp dport 3000 accept',
        '\t\tip daddr 203.0.113.7 meta l4proto { tcp, udp } th dport 443 accept',
        '\t\tip daddr 198.51.100.0/24 accept',
        '\t\tip6 daddr 2001:db8::1 accept',
        '\t\tmeta l4proto tcp reject with tcp reset',
        '\t\treject with icmpx type admin-prohibited',
        '\t}',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('lifts only its own table, and names no other', () => {
    expect(nftLiftScript()).toBe('table inet concurso {}\ndelete table inet concurso\n');
    const tables = [
      ...nftApplyScript({ server: { addresses: [], port: 80 }, resolvers: [], allowed: [] }).matchAll(
        /table (\w+) (\w+)/g,
      ),
    ];
    expect(new Set(tables.map((m) => `${m[1]} ${m[2]}`))).toEqual(new Set([`inet ${NFT_TABLE}`]));
  });
});
