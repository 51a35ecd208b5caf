import { describe, expect, it } from 'vitest';
import type { ResolvedPolicy } from '../src/network/resolved-policy.js';
import {
  WINDOWS_RULE_GROUP,
  addressRange,
  complementRanges,
  formatAddressRange,
  psQuote,
  windowsApplyScript,
  windowsFirewallCommand,
  windowsLiftScript,
  windowsRules,
} from '../src/network/windows-firewall.js';

const IPV4_TOP = (1n << 32n) - 1n;
const IPV6_TOP = (1n << 128n) - 1n;
const none: ResolvedPolicy = { server: { addresses: [], port: 3000 }, resolvers: [], allowed: [] };
/** The remote addresses of the any-protocol rule of one family (`IPv4` or `IPv6`). */
const blockedAll = (policy: ResolvedPolicy, label: string) =>
  windowsRules(policy).find((r) => r.protocol === 'Any' && r.displayName.includes(label))?.remoteAddress;

describe('address ranges for the Windows firewall (issue 25)', () => {
  it('complements IPv4 ranges, joining overlapping and adjacent ones', () => {
    const ranges = [
      addressRange('10.0.0.0', 4, 8),
      addressRange('127.0.0.0', 4, 8),
      addressRange('10.1.2.3', 4),
    ];
    expect(complementRanges(ranges, 0n, IPV4_TOP).map((r) => formatAddressRange(r, 4))).toEqual([
      '0.0.0.0-9.255.255.255',
      '11.0.0.0-126.255.255.255',
      '128.0.0.0-255.255.255.255',
    ]);
    const adjacent = [addressRange('0.0.0.0', 4, 1), addressRange('128.0.0.0', 4, 1)];
    expect(complementRanges(adjacent, 0n, IPV4_TOP)).toEqual([]);
    expect(complementRanges([], 1n, 65535n)).toEqual([{ start: 1n, end: 65535n }]);
  });

  it('complements IPv6 ranges around ::1 and a /32, in compressed form', () => {
    const ranges = [addressRange('::1', 6), addressRange('2001:db8:ffff::7', 6, 32)];
    expect(complementRanges(ranges, 0n, IPV6_TOP).map((r) => formatAddressRange(r, 6))).toEqual([
      '::',
      '::2-2001:db7:ffff:ffff:ffff:ffff:ffff:ffff',
      '2001:db9::-ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    ]);
    expect(formatAddressRange(addressRange('::ffff:192.0.2.1', 6), 6)).toBe('::ffff:c000:201');
    expect(() => addressRange('1::2::3', 6)).toThrow();
    expect(() => addressRange('10.0.0.256', 4)).toThrow();
  });
});

describe("the agent's Windows firewall rules (issue 25)", () => {
  it('blocks everything but loopback and the all-ports networks, on any protocol', () => {
    const policy = {
      ...none,
      allowed: [{ address: '10.0.0.0', version: 4 as const, prefix: 8, port: null }],
    };
    expect(blockedAll(policy, 'IPv4')).toEqual([
      '0.0.0.0-9.255.255.255',
      '11.0.0.0-126.255.255.255',
      // Link-local, multicast and broadcast stay open, as on Linux (DHCP, neighbours).
      '128.0.0.0-169.253.255.255',
      '169.255.0.0-223.255.255.255',
      '240.0.0.0-255.255.255.254',
    ]);
    expect(blockedAll(policy, 'IPv6')).toEqual([
      '::',
      '::2-fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
      'fec0::-feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    ]);
  });

  it('blocks the other ports, TCP and UDP, of an entry with a port', () => {
    const rules = windowsRules({ ...none, allowed: [{ address: '203.0.113.7', version: 4, port: 443 }] });
    const ported = rules.filter((r) => r.remoteAddress.join() === '203.0.113.7');
    expect(ported.map((r) => [r.protocol, r.remotePort])).toEqual([
      ['TCP', ['1-442', '444-65535']],
      ['UDP', ['1-442', '444-65535']],
      ['ICMPv4', undefined],
    ]);
    expect(
      blockedAll({ ...none, allowed: [{ address: '203.0.113.7', version: 4, port: 443 }] }, 'IPv4'),
    ).toEqual([
      '0.0.0.0-126.255.255.255',
      '128.0.0.0-169.253.255.255',
      '169.255.0.0-203.0.113.6',
      '203.0.113.8-223.255.255.255',
      '240.0.0.0-255.255.255.254',
    ]);
  });

  it('lets the server on its TCP port and the resolvers on 53, joining the ports of one address', () => {
    const rules = windowsRules({
      server: { addresses: [{ address: '10.0.0.5', version: 4 }], port: 3000 },
      resolvers: [
        { address: '10.0.0.5', version: 4 },
        { address: '2001:db8::53', version: 6 },
      ],
      allowed: [],
    });
    const rows = rules.map((r) => [r.protocol, r.remoteAddress.join(), r.remotePort?.join() ?? 'todos']);
    expect(rows.filter((r) => r[0] !== 'Any')).toEqual([
      ['TCP', '10.0.0.5', '1-52,54-2999,3001-65535'],
      ['UDP', '10.0.0.5', '1-52,54-65535'],
      ['ICMPv4', '10.0.0.5', 'todos'],
      ['TCP', '2001:db8::53', '1-52,54-65535'],
      ['UDP', '2001:db8::53', '1-52,54-65535'],
      ['ICMPv6', '2001:db8::53', 'todos'],
    ]);
    const server = windowsRules({
      ...none,
      server: { addresses: [{ address: '10.0.0.5', version: 4 }], port: 3000 },
    });
    // No UDP port of the server is allowed: its UDP rule filters no port.
    expect(server.find((r) => r.protocol === 'UDP')).toMatchObject({ remoteAddress: ['10.0.0.5'] });
    expect(server.find((r) => r.protocol === 'UDP')?.remotePort).toBeUndefined();
    expect(new Set(rules.map((r) => r.name)).size).toBe(rules.length);
  });

  it('needs no port rules for an address inside an all-ports network, and cuts overlapping entries', () => {
    const covered = windowsRules({
      server: { addresses: [{ address: '10.0.0.5', version: 4 }], port: 3000 },
      resolvers: [],
      allowed: [{ address: '10.0.0.0', version: 4, prefix: 8, port: null }],
    });
    expect(covered.map((r) => r.protocol)).toEqual(['Any', 'Any']);
    const overlapping = windowsRules({
      ...none,
      resolvers: [{ address: '192.0.2.53', version: 4 }],
      allowed: [{ address: '192.0.2.0', version: 4, prefix: 24, port: 443 }],
    });
    const tcp = overlapping.filter((r) => r.protocol === 'TCP').map((r) => [r.remoteAddress, r.remotePort]);
    expect(tcp).toEqual([
      [
        ['192.0.2.0-192.0.2.52', '192.0.2.54-192.0.2.255'],
        ['1-442', '444-65535'],
      ],
      [['192.0.2.53'], ['1-52', '54-442', '444-65535']],
    ]);
  });

  it('writes no rule of any address when everything is allowed', () => {
    const all = windowsRules({
      ...none,
      allowed: [
        { address: '0.0.0.0', version: 4, prefix: 0, port: null },
        { address: '::', version: 6, prefix: 0, port: null },
      ],
    });
    expect(all).toEqual([]);
  });
});

describe("the agent's PowerShell scripts (issue 25)", () => {
  const policy: ResolvedPolicy = {
    server: { addresses: [{ address: '10.0.0.5', version: 4 }], port: 3000 },
    resolvers: [{ address: '10.0.0.53', version: 4 }],
    allowed: [{ address: '203.0.113.7', version: 4, port: 443 }],
  };

  it('removes its own group first, then creates its rules, stopping at the first failure', () => {
    const script = windowsApplyScript(policy);
    const lines = script.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '& {',
      "$ErrorActionPreference = 'Stop'",
      'try {',
      "  Remove-NetFirewallRule -Group 'Concurso' -ErrorAction SilentlyContinue",
    ]);
    expect(script).toContain(
      "New-NetFirewallRule -Name 'Concurso-1' -DisplayName 'Concurso: bloquear IPv4 no permitido' -Group 'Concurso' " +
        "-Direction Outbound -Action Block -Profile Any -Protocol Any -RemoteAddress @('0.0.0.0-10.0.0.4',",
    );
    expect(script).toContain(
      "-Protocol TCP -RemoteAddress @('203.0.113.7') -RemotePort @('1-442','444-65535')",
    );
    // Stdin runs one statement per empty line: none inside the block, two after it.
    expect(script.endsWith('}\n\n\n')).toBe(true);
    expect(script.trimEnd().split('\n')).not.toContain('');
    expect(script).toMatch(/^[\x20-\x7e\n]*$/);
  });

  it('touches no profile setting and no rule outside its group', () => {
    for (const script of [windowsApplyScript(policy), windowsLiftScript()]) {
      expect(script).not.toMatch(/Set-NetFirewallProfile|DefaultOutboundAction|netsh/i);
      for (const line of script.split('\n').filter((l) => /NetFirewallRule/.test(l))) {
        expect(line).toContain(`-Group '${WINDOWS_RULE_GROUP}'`);
      }
    }
  });

  it('lifts by removing its own group only', () => {
    const lines = windowsLiftScript().split('\n');
    expect(lines.filter((l) => /NetFirewall/.test(l))).toEqual([
      "  Remove-NetFirewallRule -Group 'Concurso' -ErrorAction SilentlyContinue",
    ]);
  });

  it('quotes strings for PowerShell, doubling a single quote', () => {
    expect(psQuote("Laboratorio O'Higgins")).toBe("'Laboratorio O''Higgins'");
    expect(psQuote('$(Remove-Item C:\\)')).toBe("'$(Remove-Item C:\\)'");
  });

  it('runs Windows PowerShell with the script on stdin', () => {
    expect(windowsFirewallCommand()).toEqual({
      file: 'powershell.exe',
      args: ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-Command', '-'],
    });
  });
});
