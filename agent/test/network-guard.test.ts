import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIREWALL_TEXTS, FirewallError, nftablesFirewall, type Firewall } from '../src/network/firewall.js';
import { NETWORK_STATE_FILE, NetworkGuard } from '../src/network/network-guard.js';
import type { DiversionOptions, StartDiversion } from '../src/network/diversion.js';
import type { DivertPorts, ResolvedPolicy } from '../src/network/resolved-policy.js';
import { resolvePolicy, systemResolvers, type Lookup } from '../src/network/resolver.js';
import { NETWORK_UNRESOLVED_MAX, agentHeartbeatSchema } from '@concurso/shared';
import { tempDir } from './helpers/processes.js';

/** A firewall that records what it was asked, and fails while `failWith` is set. */
class RecordingFirewall implements Firewall {
  readonly calls: Array<{ kind: 'apply'; policy: ResolvedPolicy; divert?: DivertPorts } | { kind: 'lift' }> =
    [];
  failWith: string | null = null;

  async apply(policy: ResolvedPolicy, divert?: DivertPorts | null): Promise<void> {
    if (this.failWith) throw new FirewallError(this.failWith);
    this.calls.push({ kind: 'apply', policy, ...(divert ? { divert } : {}) });
  }

  async lift(): Promise<void> {
    if (this.failWith) throw new FirewallError(this.failWith);
    this.calls.push({ kind: 'lift' });
  }
}

/** A resolver whose answers the test changes. */
const names = new Map<string, string[]>();
const lookup: Lookup = async (host) => {
  const addresses = names.get(host);
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const RESOLVERS = [{ address: '10.0.0.53', version: 4 as const }];

/** The guards of a test, stopped after it; the names it set are forgotten. */
const guards: NetworkGuard[] = [];
afterEach(async () => {
  await Promise.all(guards.splice(0).map((guard) => guard.stop()));
  names.clear();
});

/**
 * A guard of `firewall` for the server `servidor.prueba:3000`, on the test's resolver (`names`), in a
 * fresh data folder unless `dataDir`; its log lines in `lines`. `resolveMs` (the round that resolves
 * the allowed names again) is a minute unless given; `resolvers` default `RESOLVERS`; no diversion
 * unless given (names filtered by address only).
 */
const newGuard = async (
  firewall: Firewall,
  options: {
    dataDir?: string;
    resolveMs?: number;
    retryUnresolvedMs?: number;
    resolvers?: typeof RESOLVERS;
    diversion?: StartDiversion;
  } = {},
) => {
  const lines: string[] = [];
  const guard = new NetworkGuard({
    firewall,
    dataDir: options.dataDir ?? (await tempDir('network-guard-')),
    server: 'http://servidor.prueba:3000',
    log: (line) => lines.push(line),
    lookup,
    resolvers: options.resolvers ?? RESOLVERS,
    resolveMs: options.resolveMs ?? 60_000,
    ...(options.retryUnresolvedMs === undefined ? {} : { retryUnresolvedMs: options.retryUnresolvedMs }),
    ...(options.diversion === undefined ? {} : { diversion: options.diversion }),
  });
  guards.push(guard);
  return { guard, lines };
};

describe('the network policy on the machine (NetworkGuard)', () => {
  it('puts a policy in force once, saves it, and lifts it when the list is emptied', async () => {
    names.set('servidor.prueba', ['10.0.0.5']);
    names.set('docs.python.org', ['203.0.113.7', '2001:db8::7']);
    const firewall = new RecordingFirewall();
    const dataDir = await tempDir('network-guard-');
    const { guard, lines } = await newGuard(firewall, { dataDir });

    await guard.follow({ version: 0, allowed: [] });
    expect(firewall.calls).toEqual([]); // nothing was ever in force: the firewall is not touched
    expect(guard.status()).toEqual({ network_version: 0 });

    await guard.follow({ version: 1, allowed: ['docs.python.org:443', '10.1.0.0/16'] });
    expect(firewall.calls).toEqual([
      {
        kind: 'apply',
        policy: {
          server: { addresses: [{ address: '10.0.0.5', version: 4 }], port: 3000 },
          resolvers: RESOLVERS,
          allowed: [
            { address: '203.0.113.7', version: 4, port: 443, host: 'docs.python.org' },
            { address: '2001:db8::7', version: 6, port: 443, host: 'docs.python.org' },
            { address: '10.1.0.0', version: 4, prefix: 16, port: null },
          ],
        },
      },
    ]);
    // No diversion given: allowed names are filtered by their addresses only.
    expect(guard.status()).toEqual({ network_version: 1, network_filter: 'address' });
    // Saved with the addresses it was applied with (they stand in at a boot without DNS).
    expect(JSON.parse(await readFile(path.join(dataDir, NETWORK_STATE_FILE), 'utf8'))).toEqual({
      version: 1,
      allowed: ['docs.python.org:443', '10.1.0.0/16'],
      resolved: firewall.calls[0]!.kind === 'apply' ? firewall.calls[0]!.policy : null,
    });
    // The same policy again (every config read): nothing to do.
    await guard.follow({ version: 1, allowed: ['docs.python.org:443', '10.1.0.0/16'] });
    expect(firewall.calls).toHaveLength(1);

    await guard.follow({ version: 2, allowed: [] });
    expect(firewall.calls.at(-1)).toEqual({ kind: 'lift' });
    expect(guard.status()).toEqual({ network_version: 2 });
    await expect(readFile(path.join(dataDir, NETWORK_STATE_FILE))).rejects.toThrow(/ENOENT/);
    expect(lines).toEqual([
      'Red: política v1 en vigor (2 sitios permitidos, además del servidor y el DNS).',
      'Red: sin restricciones (reglas de red del agente retiradas).',
    ]);
  });

  it('says why a policy failed, once per reason, keeps trying, and restores the saved one at start', async () => {
    names.set('servidor.prueba', ['10.0.0.5']);
    const firewall = new RecordingFirewall();
    const dataDir = await tempDir('network-guard-');
    const first = await newGuard(firewall, { dataDir });
    firewall.failWith = FIREWALL_TEXTS.nftMissing;
    await first.guard.follow({ version: 3, allowed: ['10.9.0.0/16'] });
    await first.guard.follow({ version: 3, allowed: ['10.9.0.0/16'] });
    expect(first.guard.status()).toEqual({ network_version: 0, network_error: FIREWALL_TEXTS.nftMissing });
    expect(first.lines).toEqual([`Red: no se pudo aplicar la política: ${FIREWALL_TEXTS.nftMissing}`]);
    firewall.failWith = null;
    await first.guard.follow({ version: 3, allowed: ['10.9.0.0/16'] });
    expect(first.guard.status()).toEqual({ network_version: 3, network_filter: 'address' });
    await first.guard.stop();

    // A new run on the same data folder: the saved policy is back in force before any config.
    const second = await newGuard(firewall, { dataDir });
    await second.guard.restore();
    expect(firewall.calls).toHaveLength(2);
    expect(second.guard.status()).toEqual({ network_version: 3, network_filter: 'address' });
    expect(second.lines).toEqual([
      'Red: política v3 restablecida al iniciar (la última aplicada), antes de hablar con el servidor.',
    ]);
    // At a boot where nothing resolves yet (the server's name neither), the saved addresses stand in.
    names.clear();
    const offline = new RecordingFirewall();
    const third0 = await newGuard(offline, { dataDir });
    await third0.guard.restore();
    expect(offline.calls).toEqual([firewall.calls[1]]);
    expect(third0.guard.status()).toEqual({ network_version: 3, network_filter: 'address' });
    // An unreadable saved file is no policy.
    await writeFile(path.join(dataDir, NETWORK_STATE_FILE), '{roto');
    const third = await newGuard(new RecordingFirewall(), { dataDir });
    await third.guard.restore();
    expect(third.guard.status()).toEqual({ network_version: 0 });
  });

  it('applies again when an allowed name resolves to other addresses', async () => {
    names.set('servidor.prueba', ['10.0.0.5']);
    names.set('juez.prueba', ['203.0.113.1']);
    const firewall = new RecordingFirewall();
    const { guard, lines } = await newGuard(firewall, { resolveMs: 50 });
    await guard.follow({ version: 1, allowed: ['juez.prueba'] });
    names.set('juez.prueba', ['203.0.113.2']);
    await expect.poll(() => firewall.calls.length, { timeout: 5_000 }).toBe(2);
    const last = firewall.calls.at(-1);
    expect(last?.kind === 'apply' && last.policy.allowed).toEqual([
      { address: '203.0.113.2', version: 4, port: null, host: 'juez.prueba' },
    ]);
    expect(lines.at(-1)).toBe('Red: direcciones de los sitios permitidos actualizadas (política v1).');
  });
});

describe('a policy whose allowed names do not all resolve', () => {
  /** The minute's round never comes in these tests: only the retry of unresolved names runs. */
  const retryingGuard = (
    firewall: Firewall,
    options: { dataDir?: string; retryUnresolvedMs?: number } = {},
  ) => newGuard(firewall, { resolveMs: 600_000, ...options });

  it('says which names it left out, retries them soon, and is whole once they resolve', async () => {
    names.set('servidor.prueba', ['10.0.0.5']);
    names.set('juez.prueba', ['203.0.113.1']);
    const firewall = new RecordingFirewall();
    const { guard, lines } = await retryingGuard(firewall, { retryUnresolvedMs: 50 });
    await guard.follow({
      version: 3,
      allowed: ['omegaup.com', 'juez.prueba', 'docs.python.org:443', '10.1.0.0/16'],
    });
    // In force without them, and said so: the lab board reads «aplicada en parte», not «aplicada».
    expect(guard.status()).toEqual({
      network_version: 3,
      network_unresolved: ['omegaup.com', 'docs.python.org'],
      network_filter: 'address',
    });
    expect(firewall.calls).toHaveLength(1);
    expect(lines).toEqual([
      'Red: no se pudo resolver omegaup.com, docs.python.org; se reintenta cada 1 s (el panel dice «aplicada en parte» mientras tanto).',
      'Red: política v3 en vigor (4 sitios permitidos, además del servidor y el DNS).',
    ]);
    // One resolves: applied again with its addresses, the other still said.
    names.set('omegaup.com', ['198.51.100.7']);
    await expect
      .poll(() => guard.status().network_unresolved, { timeout: 5_000 })
      .toEqual(['docs.python.org']);
    const second = firewall.calls.at(-1);
    expect(second?.kind === 'apply' && second.policy.allowed.map((a) => a.address)).toEqual([
      '198.51.100.7',
      '203.0.113.1',
      '10.1.0.0',
    ]);
    // The other too (long before the minute's round): the policy is whole.
    names.set('docs.python.org', ['2001:db8::7']);
    await expect
      .poll(() => guard.status(), { timeout: 5_000 })
      .toEqual({ network_version: 3, network_filter: 'address' });
    const last = firewall.calls.at(-1);
    expect(last?.kind === 'apply' && last.policy.allowed).toContainEqual({
      address: '2001:db8::7',
      version: 6,
      port: 443,
      host: 'docs.python.org',
    });
    expect(lines.at(-1)).toBe(
      'Red: ya se resuelven todos los sitios permitidos (política v3 aplicada completa).',
    );
  });

  it('says at most NETWORK_UNRESOLVED_MAX of them, in the list’s order', async () => {
    names.set('servidor.prueba', ['10.0.0.5']);
    const allowed = Array.from({ length: NETWORK_UNRESOLVED_MAX + 2 }, (_, i) => `no-existe-${i}.prueba`);
    const { guard } = await retryingGuard(new RecordingFirewall());
    await guard.follow({ version: 1, allowed });
    expect(guard.status().network_unresolved).toEqual(allowed.slice(0, NETWORK_UNRESOLVED_MAX));
    // And the heartbeat's schema takes what it says.
    expect(agentHeartbeatSchema.safeParse(guard.status()).success).toBe(true);
  });

  it('at a boot where nothing resolves, restores the saved addresses but says every name unchecked', async () => {
    names.set('servidor.prueba', ['10.0.0.5']);
    names.set('juez.prueba', ['203.0.113.1']);
    const dataDir = await tempDir('network-guard-');
    const first = await retryingGuard(new RecordingFirewall(), { dataDir });
    await first.guard.follow({ version: 2, allowed: ['juez.prueba', '10.1.0.0/16'] });
    expect(first.guard.status()).toEqual({ network_version: 2, network_filter: 'address' });
    await first.guard.stop();
    names.clear();
    const firewall = new RecordingFirewall();
    const second = await retryingGuard(firewall, { dataDir, retryUnresolvedMs: 50 });
    await second.guard.restore();
    expect(firewall.calls).toHaveLength(1);
    expect(second.guard.status()).toEqual({
      network_version: 2,
      network_unresolved: ['juez.prueba'],
      network_filter: 'address',
    });
    // The network comes up: the name resolves at the next retry.
    names.set('servidor.prueba', ['10.0.0.5']);
    names.set('juez.prueba', ['203.0.113.1']);
    await expect
      .poll(() => second.guard.status(), { timeout: 5_000 })
      .toEqual({ network_version: 2, network_filter: 'address' });
    // The list emptied: nothing left out any more.
    await second.guard.follow({ version: 3, allowed: [] });
    expect(second.guard.status()).toEqual({ network_version: 3 });
  });
});

describe('resolving a policy', () => {
  it('leaves out a name that does not resolve and says which, but needs the server’s', async () => {
    names.set('servidor.prueba', ['10.0.0.5']);
    const { policy, unresolved } = await resolvePolicy({
      server: 'http://servidor.prueba:3000',
      allowed: ['no-existe.prueba', '[2001:db8::1]:443'],
      lookup,
      resolvers: [],
    });
    expect(unresolved).toEqual(['no-existe.prueba']);
    expect(policy.allowed).toEqual([{ address: '2001:db8::1', version: 6, port: 443 }]);
    names.clear();
    await expect(
      resolvePolicy({ server: 'http://servidor.prueba:3000', allowed: [], lookup, resolvers: [] }),
    ).rejects.toThrow('no se pudo resolver el nombre del servidor servidor.prueba');
    // An address as the server needs no resolver; https's port is 443.
    const literal = await resolvePolicy({
      server: 'https://[2001:db8::5]',
      allowed: [],
      lookup,
      resolvers: [],
    });
    expect(literal.policy.server).toEqual({ addresses: [{ address: '2001:db8::5', version: 6 }], port: 443 });
  });

  it('asks every allowed name at once, and keeps the list’s order', async () => {
    let inFlight = 0;
    let most = 0;
    const slow: Lookup = async (host) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inFlight -= 1;
      return host === 'servidor.prueba' ? [{ address: '10.0.0.5', family: 4 }] : [];
    };
    const named = (i: number) => ({ address: `203.0.113.${i}`, family: 4 });
    const nameLookup: Lookup = async (host) => {
      const answer = await slow(host);
      return host.startsWith('sitio') ? [named(Number(host.slice(5, 6)))] : answer;
    };
    const { policy, unresolved } = await resolvePolicy({
      server: 'http://servidor.prueba:3000',
      allowed: ['sitio3.prueba', 'no-existe.prueba', 'sitio1.prueba:443', '10.1.0.0/16', 'sitio2.prueba'],
      lookup: slow,
      nameLookup,
      resolvers: [],
    });
    // A name that does not resolve (a timeout, in real life) holds up none of the others.
    expect(most).toBe(4);
    expect(unresolved).toEqual(['no-existe.prueba']);
    expect(policy.allowed.map((a) => `${a.host ?? '-'} ${a.address}`)).toEqual([
      'sitio3.prueba 203.0.113.3',
      'sitio1.prueba 203.0.113.1',
      '- 10.1.0.0',
      'sitio2.prueba 203.0.113.2',
    ]);
  });

  it('reads the machine’s resolvers from resolv.conf', async () => {
    const file = path.join(await tempDir('resolv-'), 'resolv.conf');
    await writeFile(
      file,
      '# generado\nsearch lab\nnameserver 10.0.0.53\nnameserver fe80::1%eth0\nnameserver basura\n',
    );
    expect(await systemResolvers(file)).toEqual([
      { address: '10.0.0.53', version: 4 },
      { address: 'fe80::1', version: 6 },
    ]);
    expect(await systemResolvers(path.join(file, 'no-existe'))).toEqual([]);
    // systemd-resolved: the stub on loopback asks the real resolvers, which must be reachable too.
    const stub = path.join(path.dirname(file), 'stub.conf');
    const upstream = path.join(path.dirname(file), 'upstream.conf');
    await writeFile(stub, 'nameserver 127.0.0.53\noptions edns0\n');
    await writeFile(upstream, 'nameserver 192.0.2.53\nnameserver 2001:db8::53\n');
    expect(await systemResolvers(stub, upstream)).toEqual([
      { address: '127.0.0.53', version: 4 },
      { address: '192.0.2.53', version: 4 },
      { address: '2001:db8::53', version: 6 },
    ]);
    // A real resolver listed: the upstream file is not read.
    expect(await systemResolvers(file, upstream)).toHaveLength(2);
  });

  it('says in Spanish that nft is missing', async () => {
    const firewall = nftablesFirewall(path.join(await tempDir('sin-nft-'), 'nft'));
    await expect(firewall.lift()).rejects.toThrow(FIREWALL_TEXTS.nftMissing);
  });
});

describe('the diversion of a contestant’s DNS and web connections (Linux)', () => {
  const DIVERT: DivertPorts = { dnsPort: 40053, tlsPort: 40443, httpPort: 40080 };

  /** A diversion that records its life in `events`; `failWith` makes its start fail. */
  const fakeDiversion = (events: string[], failWith?: string) => {
    const started: DiversionOptions[] = [];
    const updates: Array<{ policy: ResolvedPolicy; names: readonly string[] }> = [];
    const start: StartDiversion = async (options) => {
      if (failWith) throw new Error(failWith);
      started.push(options);
      events.push('start');
      return {
        ports: DIVERT,
        update: (policy, hostNames) => {
          events.push('update');
          updates.push({ policy, names: hostNames });
        },
        stop: async () => {
          events.push('stop');
        },
      };
    };
    return { start, started, updates };
  };
  /** Resolving every 50 ms, through `diversion`. */
  const divertingGuard = (
    firewall: Firewall,
    diversion: StartDiversion,
    options: { dataDir?: string; resolvers?: typeof RESOLVERS } = {},
  ) => newGuard(firewall, { resolveMs: 50, diversion, ...options });
  /** A firewall that also notes each apply and lift in `events`. */
  const noting = (events: string[]) => {
    const firewall = new RecordingFirewall();
    const apply = firewall.apply.bind(firewall);
    const lift = firewall.lift.bind(firewall);
    firewall.apply = async (policy, divert) => {
      events.push('apply');
      await apply(policy, divert);
    };
    firewall.lift = async () => {
      events.push('lift');
      await lift();
    };
    return firewall;
  };

  it('starts once with the frozen resolvers, knows the names before the rules divert, follows each resolution, stops when lifted', async () => {
    names.set('servidor.prueba', ['10.0.0.5']);
    names.set('juez.prueba', ['203.0.113.1', '2001:db8::1']);
    const events: string[] = [];
    const diversion = fakeDiversion(events);
    const firewall = noting(events);
    const { guard } = await divertingGuard(firewall, diversion.start);
    await guard.follow({ version: 1, allowed: ['juez.prueba', 'docs.python.org:8443', '10.1.0.0/16'] });
    expect(events).toEqual(['start', 'update', 'apply']);
    expect(diversion.started.map((o) => o.upstream)).toEqual([RESOLVERS]);
    const first = firewall.calls[0];
    expect(first?.kind === 'apply' && first.divert).toEqual(DIVERT);
    // The forwarder answers every allowed name (resolved or not) and the server's.
    expect(diversion.updates[0]!.names).toEqual(['juez.prueba', 'docs.python.org', 'servidor.prueba']);
    expect(diversion.updates[0]!.policy.allowed.filter((a) => a.host === 'juez.prueba')).toHaveLength(2);
    expect(guard.status()).toEqual({
      network_version: 1,
      network_unresolved: ['docs.python.org'],
      network_filter: 'name',
    });

    // A new resolution: the filter learns the new addresses, the rules are applied with the same ports.
    names.set('juez.prueba', ['203.0.113.2']);
    await expect.poll(() => firewall.calls.length, { timeout: 5_000 }).toBe(2);
    const second = firewall.calls[1];
    expect(second?.kind === 'apply' && second.divert).toEqual(DIVERT);
    expect(diversion.updates.at(-1)!.policy.allowed).toContainEqual({
      address: '203.0.113.2',
      version: 4,
      port: null,
      host: 'juez.prueba',
    });
    expect(diversion.started).toHaveLength(1);

    // Lifted: the rules first, then the diversion; the next policy starts a new one.
    await guard.follow({ version: 2, allowed: [] });
    expect(events.slice(-2)).toEqual(['lift', 'stop']);
    expect(guard.status()).toEqual({ network_version: 2 });
    await guard.follow({ version: 3, allowed: ['10.1.0.0/16'] });
    expect(diversion.started).toHaveLength(2);
    expect(guard.status()).toEqual({ network_version: 3, network_filter: 'name' });
  });

  it('restores with the resolvers frozen when the policy was first applied, not the machine’s now', async () => {
    names.set('servidor.prueba', ['10.0.0.5']);
    names.set('juez.prueba', ['203.0.113.1']);
    const dataDir = await tempDir('network-guard-');
    const first = await divertingGuard(new RecordingFirewall(), fakeDiversion([]).start, { dataDir });
    await first.guard.follow({ version: 1, allowed: ['juez.prueba'] });
    await first.guard.stop();
    // The machine's DNS servers changed (the console user's doing) before the agent restarted.
    const rogue = [{ address: '192.0.2.66', version: 4 as const }];
    const firewall = new RecordingFirewall();
    const diversion = fakeDiversion([]);
    const second = await divertingGuard(firewall, diversion.start, { dataDir, resolvers: rogue });
    await second.guard.restore();
    const applied = firewall.calls[0];
    expect(applied?.kind === 'apply' && applied.policy.resolvers).toEqual(RESOLVERS);
    expect(diversion.started.map((o) => o.upstream)).toEqual([RESOLVERS]);
    // And a new list from the server keeps them too.
    await second.guard.follow({ version: 2, allowed: ['juez.prueba', '10.1.0.0/16'] });
    const last = firewall.calls.at(-1);
    expect(last?.kind === 'apply' && last.policy.resolvers).toEqual(RESOLVERS);
  });

  it('a diversion that does not start leaves the policy in force by address, and says so', async () => {
    names.set('servidor.prueba', ['10.0.0.5']);
    const firewall = new RecordingFirewall();
    const { guard, lines } = await divertingGuard(firewall, fakeDiversion([], 'EADDRINUSE').start);
    await guard.follow({ version: 1, allowed: ['10.1.0.0/16'] });
    expect(firewall.calls).toHaveLength(1);
    expect(firewall.calls[0]).not.toHaveProperty('divert');
    expect(guard.status()).toEqual({ network_version: 1, network_filter: 'address' });
    expect(lines[0]).toBe(
      'Red: no se pudo iniciar el filtro de nombres ni el DNS del agente (EADDRINUSE); los sitios permitidos por nombre se filtran solo por dirección.',
    );
  });
});
