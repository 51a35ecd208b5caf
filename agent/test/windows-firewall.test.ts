import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FirewallError, windowsFirewall } from '../src/network/firewall.js';
import type { ResolvedPolicy } from '../src/network/resolved-policy.js';
import {
  WINDOWS_READBACK_TEXTS,
  WINDOWS_RULE_GROUP,
  addressRange,
  complementRanges,
  formatAddressRange,
  psQuote,
  windowsApplyScript,
  windowsFirewallCommand,
  windowsLiftScript,
  parseWindowsReadBack,
  windowsReadBackProblem,
  windowsReadBackScript,
  windowsRules,
} from '../src/network/windows-firewall.js';
import { tempDir } from './helpers/processes.js';

const IPV4_TOP = (1n << 32n) - 1n;
const IPV6_TOP = (1n << 128n) - 1n;
const none: ResolvedPolicy = { server: { addresses: [], port: 3000 }, resolvers: [], allowed: [] };
/** The remote addresses of the any-protocol rule of one family (`IPv4` or `IPv6`). */
const blockedAll = (policy: ResolvedPolicy, label: string) =>
  windowsRules(policy).find((r) => r.protocol === 'Any' && r.displayName.includes(label))?.remoteAddress;

describe('address ranges for the Windows firewall', () => {
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

describe("the agent's Windows firewall rules", () => {
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

describe("the agent's PowerShell scripts", () => {
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
    for (const script of [windowsApplyScript(policy), windowsLiftScript(), windowsReadBackScript()]) {
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

describe('reading the Windows rules back before saying «aplicada»', () => {
  const policy: ResolvedPolicy = {
    server: { addresses: [{ address: '10.0.0.5', version: 4 }], port: 3000 },
    resolvers: [{ address: '10.0.0.53', version: 4 }],
    allowed: [
      { address: '203.0.113.7', version: 4, port: 443 },
      { address: '10.1.0.0', version: 4, prefix: 16, port: null },
    ],
  };
  /**
   * What the read-back prints on Windows for `policy`'s rules, as PowerShell 5.1 writes it: CRLF, the
   * lists joined by commas, ICMP's ports `Any`, and a range that is a whole network in Windows' own
   * form (`fec0::/10` for `fec0::-feff:…`, `10.0.0.0/255.255.0.0`-style masks).
   */
  const RULES = [
    'regla\tConcurso-1\tTrue\tOutbound\tBlock\tAny\t0.0.0.0-10.0.0.4,10.0.0.6-10.0.0.52,10.0.0.54-10.0.255.255,10.2.0.0-126.255.255.255,128.0.0.0-169.253.255.255,169.255.0.0-203.0.113.6,203.0.113.8-223.255.255.255,240.0.0.0-255.255.255.254\tAny',
    'regla\tConcurso-2\tTrue\tOutbound\tBlock\tTCP\t10.0.0.5\t1-2999,3001-65535',
    'regla\tConcurso-3\tTrue\tOutbound\tBlock\tUDP\t10.0.0.5\tAny',
    'regla\tConcurso-4\tTrue\tOutbound\tBlock\tTCP\t10.0.0.53\t1-52,54-65535',
    'regla\tConcurso-5\tTrue\tOutbound\tBlock\tUDP\t10.0.0.53\t1-52,54-65535',
    'regla\tConcurso-6\tTrue\tOutbound\tBlock\tTCP\t203.0.113.7\t1-442,444-65535',
    'regla\tConcurso-7\tTrue\tOutbound\tBlock\tUDP\t203.0.113.7\t1-442,444-65535',
    'regla\tConcurso-8\tTrue\tOutbound\tBlock\tICMPv4\t10.0.0.5,10.0.0.53,203.0.113.7\tAny',
    'regla\tConcurso-9\tTrue\tOutbound\tBlock\tAny\t::,::2-fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff,fec0::/10\tAny',
  ];
  const PROFILE = 'perfil\tPublic\tTrue\tNotConfigured';
  const output = (rules = RULES, profiles = [PROFILE], end = ['fin']) =>
    [...rules, ...profiles, ...end].join('\r\n') + '\r\n';
  const replace = (name: string, line: string) =>
    RULES.map((rule) => (rule.startsWith(`regla\t${name}\t`) ? line : rule));

  it('reads only, its own group, and ends with a mark', () => {
    const script = windowsReadBackScript();
    expect(script).toContain("Get-NetFirewallRule -Group 'Concurso' -ErrorAction SilentlyContinue");
    expect(script).toContain('Get-NetFirewallAddressFilter');
    expect(script).toContain('Get-NetFirewallPortFilter');
    expect(script).toContain('Get-NetFirewallProfile -PolicyStore ActiveStore');
    expect(script).not.toMatch(/\b(New|Remove|Set|Enable|Disable)-Net|netsh/i);
    expect(script).toContain("[Console]::Out.WriteLine('fin')");
    // Stdin runs one statement per empty line (see the apply script): none inside, ASCII only.
    expect(script.endsWith('}\n\n\n')).toBe(true);
    expect(script.trimEnd().split('\n')).not.toContain('');
    expect(script).toMatch(/^[\x20-\x7e\n]*$/);
  });

  it('parses the lines it prints, CRLF or not', () => {
    const parsed = parseWindowsReadBack(output());
    expect(parsed.complete).toBe(true);
    expect(parsed.rules).toHaveLength(9);
    expect(parsed.rules[1]).toEqual({
      name: 'Concurso-2',
      enabled: 'True',
      direction: 'Outbound',
      action: 'Block',
      protocol: 'TCP',
      remoteAddress: ['10.0.0.5'],
      remotePort: ['1-2999', '3001-65535'],
    });
    expect(parsed.profiles).toEqual([{ name: 'Public', enabled: 'True', allowLocalRules: 'NotConfigured' }]);
    expect(parseWindowsReadBack('WARNING: algo\nfin\n')).toEqual({ rules: [], profiles: [], complete: true });
    expect(parseWindowsReadBack(`\uFEFF${output()}`).rules[0]?.name).toBe('Concurso-1');
  });

  it('finds the rules it wrote, however Windows writes their addresses and ports', () => {
    expect(windowsReadBackProblem(policy, output())).toBeNull();
    // A range that is a network, as `address/mask`; ports by number, the protocol by number.
    const masked = replace(
      'Concurso-1',
      'regla\tConcurso-1\tTrue\tOutbound\tBlock\tAny\t0.0.0.0-10.0.0.4,10.0.0.6-10.0.0.52,10.0.0.54-10.0.255.255,10.2.0.0/255.254.0.0,10.4.0.0-126.255.255.255,128.0.0.0-169.253.255.255,169.255.0.0-203.0.113.6,203.0.113.8-223.255.255.255,240.0.0.0-255.255.255.254\tAny',
    ).map((rule) => rule.replace('\tTCP\t10.0.0.5\t', '\t6\t10.0.0.5\t'));
    expect(windowsReadBackProblem(policy, output(masked))).toBeNull();
  });

  it('says in Spanish what is not as written: a rule missing, off, other addresses, other ports', () => {
    expect(windowsReadBackProblem(policy, output(RULES.filter((r) => !r.includes('Concurso-8\t'))))).toBe(
      'El Firewall de Windows no tiene la regla Concurso-8 del agente después de crearlas.',
    );
    expect(windowsReadBackProblem(policy, output([]))).toBe(
      'El Firewall de Windows no tiene las reglas Concurso-1, Concurso-2, Concurso-3, Concurso-4, Concurso-5, Concurso-6, Concurso-7, Concurso-8, Concurso-9 del agente después de crearlas.',
    );
    expect(
      windowsReadBackProblem(
        policy,
        output(replace('Concurso-3', 'regla\tConcurso-3\tFalse\tOutbound\tBlock\tUDP\t10.0.0.5\tAny')),
      ),
    ).toBe('La regla Concurso-3 del Firewall de Windows no quedó como el agente la creó (está desactivada).');
    expect(
      windowsReadBackProblem(
        policy,
        output(replace('Concurso-3', 'regla\tConcurso-3\tTrue\tOutbound\tAllow\tUDP\t10.0.0.5\tAny')),
      ),
    ).toBe('La regla Concurso-3 del Firewall de Windows no quedó como el agente la creó (acción Allow).');
    // The all-else rule without the range beyond the allowed network: those sites would be reachable.
    expect(
      windowsReadBackProblem(
        policy,
        output(replace('Concurso-1', 'regla\tConcurso-1\tTrue\tOutbound\tBlock\tAny\t0.0.0.0-10.0.0.4\tAny')),
      ),
    ).toBe(
      'La regla Concurso-1 del Firewall de Windows no quedó como el agente la creó (otras direcciones).',
    );
    expect(
      windowsReadBackProblem(
        policy,
        output(replace('Concurso-9', 'regla\tConcurso-9\tTrue\tOutbound\tBlock\tAny\tAny\tAny')),
      ),
    ).toBe(
      'La regla Concurso-9 del Firewall de Windows no quedó como el agente la creó (otras direcciones).',
    );
    expect(
      windowsReadBackProblem(
        policy,
        output(replace('Concurso-6', 'regla\tConcurso-6\tTrue\tOutbound\tBlock\tTCP\t203.0.113.7\tAny')),
      ),
    ).toBe('La regla Concurso-6 del Firewall de Windows no quedó como el agente la creó (otros puertos).');
    expect(
      windowsReadBackProblem(
        policy,
        output(
          replace('Concurso-2', 'regla\tConcurso-2\tTrue\tOutbound\tBlock\tUDP\t10.0.0.5\t1-2999,3001-65535'),
        ),
      ),
    ).toBe('La regla Concurso-2 del Firewall de Windows no quedó como el agente la creó (protocolo UDP).');
    expect(
      windowsReadBackProblem(
        policy,
        output([...RULES, 'regla\tConcurso-10\tTrue\tOutbound\tAllow\tAny\tAny\tAny']),
      ),
    ).toBe('El grupo Concurso del Firewall de Windows tiene reglas que el agente no creó: Concurso-10.');
  });

  it('says when the rules cannot act: the firewall off, local rules ignored, or no proof', () => {
    expect(
      windowsReadBackProblem(
        policy,
        output(RULES, ['perfil\tPrivate\tTrue\tTrue', 'perfil\tPublic\tFalse\tTrue']),
      ),
    ).toBe(
      'El Firewall de Windows está desactivado en el perfil Public de la red conectada: las reglas del agente no tienen efecto.',
    );
    expect(windowsReadBackProblem(policy, output(RULES, ['perfil\tDomain\tTrue\tFalse']))).toBe(
      'Una directiva de grupo hace que el Firewall de Windows ignore las reglas locales (perfil Domain): las reglas del agente no tienen efecto.',
    );
    // Cut off before its end mark: nothing proven.
    expect(windowsReadBackProblem(policy, output(RULES, [PROFILE], []))).toBe(
      WINDOWS_READBACK_TEXTS.incomplete,
    );
    // A reason fits the lab board's 300 characters.
    const many: ResolvedPolicy = {
      ...policy,
      allowed: Array.from({ length: 40 }, (_, i) => ({
        address: `203.0.113.${i + 1}`,
        version: 4 as const,
        port: 443,
      })),
    };
    expect(windowsReadBackProblem(many, output([]))!.length).toBeLessThanOrEqual(300);
  });

  it('fails the apply when the read-back differs, after the apply script, and passes when it matches', async () => {
    // A stand-in for powershell.exe: records each script it is given and answers the read-back with a
    // fixture (Node runs it: Linux has no PowerShell with the NetSecurity cmdlets).
    const dir = await tempDir('fake-powershell-');
    const fake = path.join(dir, 'powershell.mjs');
    const answer = path.join(dir, 'answer.txt');
    const calls = path.join(dir, 'calls.txt');
    await writeFile(
      fake,
      [
        "import { appendFileSync, readFileSync } from 'node:fs';",
        "let input = '';",
        "process.stdin.setEncoding('utf8').on('data', (c) => (input += c)).on('end', () => {",
        "  const readBack = input.includes('Get-NetFirewallRule');",
        `  appendFileSync(${JSON.stringify(calls)}, readBack ? 'lectura\\n' : input.includes('New-NetFirewallRule') ? 'aplicar\\n' : 'otro\\n');`,
        `  if (readBack) process.stdout.write(readFileSync(${JSON.stringify(answer)}, 'utf8'));`,
        '});',
      ].join('\n'),
    );
    const firewall = windowsFirewall({ file: process.execPath, args: [fake] });
    await writeFile(answer, output(RULES.filter((r) => !r.includes('Concurso-8\t'))));
    await expect(firewall.apply(policy)).rejects.toThrow(
      new FirewallError(
        'El Firewall de Windows no tiene la regla Concurso-8 del agente después de crearlas.',
      ),
    );
    await writeFile(answer, output());
    await expect(firewall.apply(policy)).resolves.toBeUndefined();
    await firewall.lift();
    expect((await readFile(calls, 'utf8')).trim().split('\n')).toEqual([
      'aplicar',
      'lectura',
      'aplicar',
      'lectura',
      'otro',
    ]);
  });
});
