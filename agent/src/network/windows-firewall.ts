/**
 * The agent's Windows firewall rules for a contest's network policy (docs/design.md section 6a), as
 * PowerShell scripts of the NetSecurity cmdlets: outbound rules of its own group `Concurso` only,
 * removed and created anew to apply a policy and removed to lift it. It never changes a profile's
 * settings (its default outbound action stays Allow) nor names a rule outside the group. Pure: the
 * agent resolves the host names (resolver.ts) and runs the script (firewall.ts).
 *
 * Windows allows outbound traffic by default and a block rule wins over any allow rule, so "drop all but
 * X" is written as block rules whose remote addresses are everything X does not cover: one rule of any
 * protocol for the addresses allowed on no port, and per-protocol rules of the other ports for the
 * addresses allowed only on some ports (the server, the resolvers, allowed entries with a port).
 *
 * PowerShell's exit code proves little (a group policy may ignore local rules, a profile's firewall may
 * be off): after applying, `windowsReadBackScript` reads the group back and `windowsReadBackProblem`
 * compares it with `windowsRules`, so the agent says «aplicada» only for rules that are there.
 *
 * An allowed host name is filtered only by the addresses it resolved to (the heartbeat's
 * `network_filter` is `address`: the guard runs no name filter here). Windows Firewall matches
 * addresses, ports and protocols; reading a connection's TLS SNI or HTTP Host takes a driver (a WFP
 * callout) the agent does not install, and it answers no DNS here, so every site that shares an allowed
 * name's addresses (a CDN's) is reachable too (agent/README.md, «Sitios permitidos»).
 */

import type { ResolvedPolicy } from './resolved-policy.js';

/** The agent's own rule group: the only rules it creates or removes. */
export const WINDOWS_RULE_GROUP = 'Concurso';

/** An inclusive range of integers: addresses (as 32- or 128-bit numbers) or ports. */
export interface Range {
  start: bigint;
  end: bigint;
}

/** One outbound block rule, before it is written as PowerShell. */
export interface WindowsRule {
  /** Unique among the group's rules: `Concurso-<n>`. */
  name: string;
  /** What an administrator reads in the firewall console: `Concurso: ...`, ASCII only. */
  displayName: string;
  protocol: 'Any' | 'TCP' | 'UDP' | 'ICMPv4' | 'ICMPv6';
  /** Addresses and `a-b` ranges; never empty (an empty list would mean any address). */
  remoteAddress: string[];
  /** Ports and `a-b` ranges; absent for every port. */
  remotePort?: string[];
}

const BITS = { 4: 32n, 6: 128n } as const;
const top = (version: 4 | 6) => (1n << BITS[version]) - 1n;
const PORTS = { start: 1n, end: 65535n };

/** Sorted, with overlapping and adjacent ranges joined. */
function mergeRanges(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const merged: Range[] = [];
  for (const r of sorted) {
    const last = merged.at(-1);
    if (last && r.start <= last.end + 1n) last.end = r.end > last.end ? r.end : last.end;
    else merged.push({ ...r });
  }
  return merged;
}

/** What of `min..max` (inclusive) no range in `ranges` covers, sorted and merged. */
export function complementRanges(ranges: readonly Range[], min: bigint, max: bigint): Range[] {
  const gaps: Range[] = [];
  let next = min;
  for (const r of mergeRanges(ranges)) {
    if (r.end < next) continue;
    if (r.start > max) break;
    if (r.start > next) gaps.push({ start: next, end: r.start - 1n });
    next = r.end + 1n;
  }
  if (next <= max) gaps.push({ start: next, end: max });
  return gaps;
}

function parseAddress(text: string, version: 4 | 6): bigint {
  const ipv4 = (s: string) => {
    const octets = s.split('.');
    if (octets.length !== 4 || !octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)) {
      throw new Error(`not an IPv4 address: ${text}`);
    }
    return octets.reduce((n, o) => (n << 8n) | BigInt(o), 0n);
  };
  if (version === 4) return ipv4(text);
  // An embedded IPv4 tail (`::ffff:1.2.3.4`) is the last two groups.
  const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  const v4 = tail ? ipv4(tail[2]!) : 0n;
  const body = tail ? `${tail[1]}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}` : text;
  const halves = body.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':') : []);
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const zeros = halves.length === 2 ? 8 - head.length - rest.length : 0;
  const all = [...head, ...Array<string>(Math.max(zeros, 0)).fill('0'), ...rest];
  if (halves.length > 2 || zeros < 0 || (halves.length === 2 && zeros < 1) || all.length !== 8) {
    throw new Error(`not an IPv6 address: ${text}`);
  }
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) throw new Error(`not an IPv6 address: ${text}`);
  return all.reduce((n, g) => (n << 16n) | BigInt(`0x${g}`), 0n);
}

/** The addresses of one address or network (`prefix` bits; the host bits of `address` are ignored). */
export function addressRange(address: string, version: 4 | 6, prefix?: number): Range {
  const n = parseAddress(address, version);
  const hostBits = prefix === undefined ? 0n : BITS[version] - BigInt(prefix);
  const hosts = (1n << hostBits) - 1n;
  return { start: n & ~hosts & top(version), end: n | hosts };
}

function formatAddress(n: bigint, version: 4 | 6): string {
  if (version === 4) return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 0xffn)).join('.');
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((s) => ((n >> s) & 0xffffn).toString(16));
  // RFC 5952: the longest run of two or more zero groups (the first on a tie) becomes `::`.
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.length) best = { at: i, length: j - i };
  }
  if (best.at < 0) return groups.join(':');
  return `${groups.slice(0, best.at).join(':')}::${groups.slice(best.at + best.length).join(':')}`;
}

/** `a-b` as the firewall reads it, or one address alone. */
export function formatAddressRange(r: Range, version: 4 | 6): string {
  const start = formatAddress(r.start, version);
  return r.start === r.end ? start : `${start}-${formatAddress(r.end, version)}`;
}

const formatPorts = (ranges: readonly Range[]) =>
  ranges.map((r) => (r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`));

/** An address range allowed only on these ports, per protocol (an empty list: no port of it). */
interface PortLimited {
  range: Range;
  tcp: Range[];
  udp: Range[];
}

/**
 * Never blocked, as on Linux (nftables.ts: loopback, DHCP, neighbour discovery): loopback, and the
 * link's own traffic (link-local, multicast, broadcast), so the machine keeps its address and its
 * neighbours; none of them reaches a site outside the lab.
 */
const LOCAL_NETWORKS: Record<4 | 6, Array<[string, number | undefined]>> = {
  4: [
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['224.0.0.0', 4],
    ['255.255.255.255', undefined],
  ],
  6: [
    ['::1', undefined],
    ['fe80::', 10],
    ['ff00::', 8],
  ],
};

/** The block rules that put `policy` in force, IPv4 first, named `Concurso-1`, `Concurso-2`, ... in order. */
export function windowsRules(policy: ResolvedPolicy): WindowsRule[] {
  const rules: Omit<WindowsRule, 'name'>[] = [];
  for (const version of [4, 6] as const) {
    const label = `IPv${version}`;
    const port = (p: number) => [{ start: BigInt(p), end: BigInt(p) }];
    const open = mergeRanges([
      ...LOCAL_NETWORKS[version].map(([address, prefix]) => addressRange(address, version, prefix)),
      ...policy.allowed
        .filter((a) => a.version === version && a.port === null)
        .map((a) => addressRange(a.address, version, a.prefix)),
    ]);
    const limited: PortLimited[] = [
      ...policy.server.addresses
        .filter((s) => s.version === version)
        .map((s) => ({ range: addressRange(s.address, version), tcp: port(policy.server.port), udp: [] })),
      ...policy.resolvers
        .filter((r) => r.version === version)
        .map((r) => ({ range: addressRange(r.address, version), tcp: port(53), udp: port(53) })),
      ...policy.allowed.flatMap((a) =>
        a.version === version && a.port !== null
          ? [{ range: addressRange(a.address, version, a.prefix), tcp: port(a.port), udp: port(a.port) }]
          : [],
      ),
    ];

    const blocked = complementRanges([...open, ...limited.map((l) => l.range)], 0n, top(version));
    if (blocked.length > 0) {
      const remoteAddress = blocked.map((r) => formatAddressRange(r, version));
      rules.push({ displayName: `Concurso: bloquear ${label} no permitido`, protocol: 'Any', remoteAddress });
    }

    // Cut the port-limited ranges where any of them starts or ends, so each piece is allowed the union
    // of the ports of every entry covering it (a block rule on a wider entry would win over a narrower
    // entry's other port); a piece inside an all-ports network needs no rule.
    const cuts = [...new Set(limited.flatMap((l) => [l.range.start, l.range.end + 1n]))].sort((a, b) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    const groups = new Map<string, { tcp: Range[]; udp: Range[]; addresses: Range[] }>();
    for (let i = 0; i + 1 < cuts.length; i++) {
      const piece = { start: cuts[i]!, end: cuts[i + 1]! - 1n };
      const covering = limited.filter((l) => l.range.start <= piece.start && piece.end <= l.range.end);
      if (covering.length === 0) continue;
      const tcp = mergeRanges(covering.flatMap((l) => l.tcp));
      const udp = mergeRanges(covering.flatMap((l) => l.udp));
      const key = `${formatPorts(tcp).join(',')}/${formatPorts(udp).join(',')}`;
      const group = groups.get(key) ?? { tcp, udp, addresses: [] };
      group.addresses.push(...complementRanges(open, piece.start, piece.end));
      groups.set(key, group);
    }
    const everyLimited: Range[] = [];
    for (const { tcp, udp, addresses } of groups.values()) {
      if (addresses.length === 0) continue;
      everyLimited.push(...addresses);
      const remoteAddress = mergeRanges(addresses).map((r) => formatAddressRange(r, version));
      for (const [protocol, allowed] of [['TCP', tcp] as const, ['UDP', udp] as const]) {
        const closed = complementRanges(allowed, PORTS.start, PORTS.end);
        if (closed.length === 0) continue;
        // No port of the protocol allowed: no port filter, so port 0 is blocked as well.
        const remotePort = allowed.length === 0 ? undefined : formatPorts(closed);
        const what = allowed.length === 0 ? 'todo' : `salvo ${formatPorts(allowed).join(',')}`;
        rules.push({
          displayName: `Concurso: bloquear ${label} ${protocol} ${what}`,
          protocol,
          remoteAddress,
          remotePort,
        });
      }
    }
    // The port-limited addresses are outside the any-protocol rule: ICMP to them is blocked here (a rule
    // names one protocol, so other IP protocols to these few addresses are not).
    if (everyLimited.length > 0) {
      const protocol = version === 4 ? 'ICMPv4' : 'ICMPv6';
      const remoteAddress = mergeRanges(everyLimited).map((r) => formatAddressRange(r, version));
      rules.push({ displayName: `Concurso: bloquear ${label} ${protocol}`, protocol, remoteAddress });
    }
  }
  return rules.map((rule, i) => ({ name: `${WINDOWS_RULE_GROUP}-${i + 1}`, ...rule }));
}

/** `text` as a PowerShell single-quoted string: nothing inside is expanded, a `'` is doubled. */
export function psQuote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

const psArray = (items: readonly string[]) => `@(${items.map(psQuote).join(',')})`;
const removeGroup = `Remove-NetFirewallRule -Group ${psQuote(WINDOWS_RULE_GROUP)} -ErrorAction SilentlyContinue`;

/**
 * The statements as one block. `powershell -Command -` runs stdin statement by statement as if typed at a
 * prompt, where `$ErrorActionPreference = 'Stop'` stops only the statement that failed and the exit code
 * is that of the last one; inside one `& { }` a failure stops the rest and the exit code is 1. The prompt
 * runs a multi-line statement at an empty line, so the block holds none and the script ends with two.
 */
function block(statements: readonly string[]): string {
  return [
    '& {',
    "$ErrorActionPreference = 'Stop'",
    'try {',
    ...statements.map((s) => `  ${s}`),
    '} catch {',
    '  [Console]::Error.WriteLine($_.ToString())',
    '  exit 1',
    '}',
    'exit 0',
    '}',
    '',
    '',
    '',
  ].join('\n');
}

/**
 * The script that puts `policy` in force: removes the group's rules, then creates the rules of
 * `windowsRules`. Windows has no transaction for firewall rules: from the removal until the last rule is
 * created (one script run, well under a second) the policy is partly or not in force, and a failure
 * midway leaves part of the rules (exit code 1): the caller applies again or lifts.
 */
export function windowsApplyScript(policy: ResolvedPolicy): string {
  const create = windowsRules(policy).map((r) =>
    [
      `New-NetFirewallRule -Name ${psQuote(r.name)} -DisplayName ${psQuote(r.displayName)}`,
      `-Group ${psQuote(WINDOWS_RULE_GROUP)} -Direction Outbound -Action Block -Profile Any`,
      `-Protocol ${r.protocol} -RemoteAddress ${psArray(r.remoteAddress)}`,
      ...(r.remotePort ? [`-RemotePort ${psArray(r.remotePort)}`] : []),
      '| Out-Null',
    ].join(' '),
  );
  return block([removeGroup, ...create]);
}

/** The script that lifts the policy: the group's rules only, whether or not there are any. */
export function windowsLiftScript(): string {
  return block([removeGroup]);
}

/** How to run a script of this module: Windows PowerShell 5.1 (in every Windows), the script on stdin. */
export function windowsFirewallCommand(): { file: string; args: string[] } {
  return {
    file: 'powershell.exe',
    args: ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-Command', '-'],
  };
}

/**
 * The script that reads the group's rules back after `windowsApplyScript` (the agent says «aplicada»
 * only when they are what it wrote): one tab-separated line per rule of the group (`regla`, name,
 * Enabled, Direction, Action, the port filter's Protocol, the address filter's RemoteAddress and the
 * port filter's RemotePort, lists joined by commas), one per profile of a connected network as the
 * active policy has it (`perfil`, name, Enabled, AllowLocalFirewallRules: a rule does nothing in a
 * profile whose firewall is off, nor when a group policy ignores local rules), and `fin` last (a
 * cut-off output is no proof). Reads only.
 */
export function windowsReadBackScript(): string {
  const tab = '"`t"';
  return block([
    `$rules = @(Get-NetFirewallRule -Group ${psQuote(WINDOWS_RULE_GROUP)} -ErrorAction SilentlyContinue)`,
    'foreach ($r in $rules) { $a = $r | Get-NetFirewallAddressFilter; $p = $r | Get-NetFirewallPortFilter; ' +
      "[Console]::Out.WriteLine((@('regla', $r.Name, $r.Enabled, $r.Direction, $r.Action, $p.Protocol, " +
      `(@($a.RemoteAddress) -join ','), (@($p.RemotePort) -join ',')) -join ${tab})) }`,
    'foreach ($c in @(Get-NetConnectionProfile -ErrorAction SilentlyContinue)) { ' +
      "$n = \"$($c.NetworkCategory)\" -replace 'DomainAuthenticated', 'Domain'; " +
      '$f = Get-NetFirewallProfile -PolicyStore ActiveStore -Name $n -ErrorAction SilentlyContinue; ' +
      `if ($f) { [Console]::Out.WriteLine((@('perfil', $f.Name, $f.Enabled, $f.AllowLocalFirewallRules) -join ${tab})) } }`,
    "[Console]::Out.WriteLine('fin')",
  ]);
}

/** One rule of the group as the read-back prints it (`windowsReadBackScript`). */
interface ReadBackRule {
  name: string;
  enabled: string;
  direction: string;
  action: string;
  protocol: string;
  remoteAddress: string[];
  remotePort: string[];
}

/** One profile of a connected network as the active policy has it. */
interface ReadBackProfile {
  name: string;
  enabled: string;
  allowLocalRules: string;
}

/** The read-back's output, parsed; `complete` when its last line `fin` came. */
export interface WindowsReadBack {
  rules: ReadBackRule[];
  profiles: ReadBackProfile[];
  complete: boolean;
}

/**
 * Reads the output of `windowsReadBackScript` (CRLF or LF, with or without a byte-order mark; lines it
 * does not know, such as a warning, are skipped).
 */
export function parseWindowsReadBack(output: string): WindowsReadBack {
  const result: WindowsReadBack = { rules: [], profiles: [], complete: false };
  const list = (text: string | undefined) =>
    (text ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  // A byte-order mark some consoles put first would hide the first line's kind.
  for (const line of output.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const fields = line.split('\t').map((field) => field.trim());
    if (fields[0] === 'regla' && fields.length >= 8) {
      const [, name, enabled, direction, action, protocol, addresses, ports] = fields as string[];
      result.rules.push({
        name: name!,
        enabled: enabled!,
        direction: direction!,
        action: action!,
        protocol: protocol!,
        remoteAddress: list(addresses),
        remotePort: list(ports),
      });
    } else if (fields[0] === 'perfil' && fields.length >= 4) {
      result.profiles.push({ name: fields[1]!, enabled: fields[2]!, allowLocalRules: fields[3]! });
    } else if (line.trim() === 'fin') {
      result.complete = true;
    }
  }
  return result;
}

/** Spanish reasons a read-back does not match (shown as «red: no aplicada (…)» on /laboratorio). */
export const WINDOWS_READBACK_TEXTS = {
  incomplete: 'No se pudo comprobar el Firewall de Windows: la lectura de las reglas del agente no terminó.',
  missing: (names: readonly string[]) =>
    `El Firewall de Windows no tiene ${names.length === 1 ? 'la regla' : 'las reglas'} ${names.join(', ')} del agente después de crearlas.`,
  different: (name: string, what: string) =>
    `La regla ${name} del Firewall de Windows no quedó como el agente la creó (${what}).`,
  extra: (names: readonly string[]) =>
    `El grupo ${WINDOWS_RULE_GROUP} del Firewall de Windows tiene reglas que el agente no creó: ${names.join(', ')}.`,
  profileOff: (profile: string) =>
    `El Firewall de Windows está desactivado en el perfil ${profile} de la red conectada: las reglas del agente no tienen efecto.`,
  localRulesIgnored: (profile: string) =>
    `Una directiva de grupo hace que el Firewall de Windows ignore las reglas locales (perfil ${profile}): las reglas del agente no tienen efecto.`,
} as const;

/** The protocol as the firewall names it, whatever the read-back printed (`TCP` or `6`). */
function protocolName(text: string): string {
  const byNumber: Record<string, string> = { '1': 'ICMPv4', '6': 'TCP', '17': 'UDP', '58': 'ICMPv6' };
  return (byNumber[text] ?? text).toLowerCase();
}

/**
 * The addresses of a RemoteAddress list as merged ranges per family (`4:…` and `6:…` texts), or null
 * when an entry is none the agent writes (`Any`, a keyword such as `LocalSubnet`, something unreadable).
 * Windows prints a range that is a whole network as `address/mask` (`10.0.0.0/255.0.0.0`) or
 * `address/prefix` (`fe80::/64`), and one address alone: all are read as the ranges they are.
 */
function addressSet(entries: readonly string[]): string[] | null {
  const byVersion: Record<4 | 6, Range[]> = { 4: [], 6: [] };
  for (const entry of entries) {
    const range = /^([^/-]+)-([^/-]+)$/.exec(entry);
    const network = /^([^/-]+)\/([^/-]+)$/.exec(entry);
    const address = range?.[1] ?? network?.[1] ?? entry;
    const version: 4 | 6 = address.includes(':') ? 6 : 4;
    try {
      if (range) {
        byVersion[version].push({
          start: addressRange(range[1]!, version).start,
          end: addressRange(range[2]!, version).end,
        });
      } else if (network) {
        const mask = network[2]!;
        let prefix: number;
        if (/^\d{1,3}$/.test(mask)) prefix = Number(mask);
        else if (version === 4) {
          const bits = addressRange(mask, 4).start.toString(2).padStart(32, '0');
          if (!/^1*0*$/.test(bits)) return null;
          prefix = bits.indexOf('0') === -1 ? 32 : bits.indexOf('0');
        } else return null;
        if (prefix > (version === 4 ? 32 : 128)) return null;
        byVersion[version].push(addressRange(address, version, prefix));
      } else {
        byVersion[version].push(addressRange(address, version));
      }
    } catch {
      return null;
    }
  }
  return ([4, 6] as const).flatMap((version) =>
    mergeRanges(byVersion[version]).map((r) => `${version}:${formatAddressRange(r, version)}`),
  );
}

/** The ports of a RemotePort list as merged ranges; `Any` (or nothing) is every port: null. */
function portSet(entries: readonly string[] | undefined): string | null {
  if (!entries || entries.length === 0 || entries.some((e) => e.toLowerCase() === 'any')) return null;
  const ranges: Range[] = [];
  for (const entry of entries) {
    const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(entry);
    if (!match) return `?${entries.join(',')}`;
    ranges.push({ start: BigInt(match[1]!), end: BigInt(match[2] ?? match[1]!) });
  }
  return formatPorts(mergeRanges(ranges)).join(',');
}

/**
 * Compares what the read-back printed (`output` of `windowsReadBackScript`) with the rules `policy`
 * needs (`windowsRules`): every rule there by its name, enabled, outbound, blocking, of its protocol,
 * on the same addresses and ports (however Windows writes them); no other rule in the group; and the
 * firewall on, honouring local rules, in every profile of a connected network. Answers null when it
 * all holds, else the Spanish reason (`WINDOWS_READBACK_TEXTS`, at most 300 characters).
 */
export function windowsReadBackProblem(policy: ResolvedPolicy, output: string): string | null {
  const found = parseWindowsReadBack(output);
  const clip = (text: string) => text.slice(0, 300);
  if (!found.complete) return WINDOWS_READBACK_TEXTS.incomplete;
  const expected = windowsRules(policy);
  const byName = new Map(found.rules.map((rule) => [rule.name, rule]));
  const missing = expected.filter((rule) => !byName.has(rule.name)).map((rule) => rule.name);
  if (missing.length > 0) return clip(WINDOWS_READBACK_TEXTS.missing(missing));
  for (const rule of expected) {
    const actual = byName.get(rule.name)!;
    const differs = (what: string) => clip(WINDOWS_READBACK_TEXTS.different(rule.name, what));
    if (actual.enabled.toLowerCase() !== 'true') return differs('está desactivada');
    if (actual.direction.toLowerCase() !== 'outbound') return differs(`dirección ${actual.direction}`);
    if (actual.action.toLowerCase() !== 'block') return differs(`acción ${actual.action}`);
    if (protocolName(actual.protocol) !== protocolName(rule.protocol))
      return differs(`protocolo ${actual.protocol}`);
    const addresses = addressSet(actual.remoteAddress);
    if (addresses === null || addresses.join() !== addressSet(rule.remoteAddress)?.join())
      return differs('otras direcciones');
    if (portSet(actual.remotePort) !== portSet(rule.remotePort)) return differs('otros puertos');
  }
  const names = new Set(expected.map((rule) => rule.name));
  const extra = found.rules.filter((rule) => !names.has(rule.name)).map((rule) => rule.name);
  if (extra.length > 0) return clip(WINDOWS_READBACK_TEXTS.extra(extra));
  for (const profile of found.profiles) {
    if (profile.enabled.toLowerCase() === 'false')
      return clip(WINDOWS_READBACK_TEXTS.profileOff(profile.name));
    if (profile.allowLocalRules.toLowerCase() === 'false')
      return clip(WINDOWS_READBACK_TEXTS.localRulesIgnored(profile.name));
  }
  return null;
}
