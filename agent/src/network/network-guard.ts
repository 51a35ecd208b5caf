/**
 * The contest's network policy on this machine (agent/README.md, «Sitios permitidos»): follows the config's
 * `network` (put in force while it has destinations, lifted when it has none), re-resolves the host
 * names every minute (every `NETWORK_RETRY_UNRESOLVED_MS` while some do not resolve), keeps the last
 * policy it applied in the data folder so a restart puts it back before the server answers (a reboot
 * does not open the network) and an unreachable server changes nothing, and says in the heartbeat which
 * version is in force, why the last one failed, and which allowed names it left out because they did
 * not resolve (the lab board says «aplicada» only without any). On Linux it also runs the diversion
 * (diversion.ts: the agent's DNS forwarder and name filter) while a policy is in force, and keeps their
 * lists of names up to date with each resolution. The DNS resolvers it asks are frozen when a policy is
 * first put in force (and saved with it): a change of the machine's DNS servers mid-contest opens nothing.
 * While a policy is in force the server's host is resolved through them too (or keeps the addresses last
 * resolved), and the agent's own connections to the server use those addresses (`serverLookup`): such a
 * change does not cut the agent off its server either.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  NETWORK_UNRESOLVED_MAX,
  agentNetworkPolicySchema,
  ipVersion,
  parseDestination,
  type AgentNetworkPolicy,
} from '@concurso/shared';
import { describeError } from '../errors.js';
import { writeAtomically } from '../outbox.js';
import { Periodic } from '../periodic.js';
import { TEXTS } from '../texts.js';
import type { Diversion, StartDiversion } from './diversion.js';
import type { Firewall } from './firewall.js';
import {
  resolvePolicy,
  systemResolvers,
  upstreamLookup,
  upstreamResolvers,
  type Lookup,
} from './resolver.js';
import type { ResolvedPolicy } from './resolved-policy.js';
import { pinnedServerLookup, type PinnedServer } from './server-lookup.js';

type Resolvers = ReadonlyArray<{ address: string; version: 4 | 6 }>;

/** How often the allowed host names are resolved again while a policy is in force (ms). */
const NETWORK_RESOLVE_MS = 60_000;

/**
 * How often the allowed host names are resolved again while some of them do not resolve (ms): a boot
 * before the network's DNS answers, a name mistyped or gone. Short, so the lab board turns from
 * «aplicada en parte» to «aplicada» soon after they resolve.
 */
const NETWORK_RETRY_UNRESOLVED_MS = 15_000;

/** The file, in the data folder, of the last policy put in force (deleted when lifted). */
export const NETWORK_STATE_FILE = 'network-policy.json';

/** What the heartbeat says of the network policy. */
export interface NetworkStatus {
  /** The version in force (0: none). */
  network_version: number;
  /** Why the last policy could not be put in force (Spanish), if it failed. */
  network_error?: string;
  /**
   * The allowed host names the policy in force left out because they did not resolve (the first
   * `NETWORK_UNRESOLVED_MAX`, as the heartbeat's schema takes them); absent when every one resolved.
   */
  network_unresolved?: string[];
  /**
   * While a policy is in force: `name` when allowed host names are filtered by the name itself (the
   * diversion runs: TLS SNI, HTTP Host, DNS through the agent), `address` when only by their addresses.
   */
  network_filter?: 'name' | 'address';
}

/** Options of a `NetworkGuard`. */
export interface NetworkGuardOptions {
  firewall: Firewall;
  /** The agent's data folder (where `NETWORK_STATE_FILE` lives). */
  dataDir: string;
  /** The contest server's base URL: always reachable. */
  server: string;
  log: (line: string) => void;
  /** Time between two resolutions of the allowed host names (ms). Default `NETWORK_RESOLVE_MS`. */
  resolveMs?: number;
  /** The same while some do not resolve (ms). Default `NETWORK_RETRY_UNRESOLVED_MS`. */
  retryUnresolvedMs?: number;
  /**
   * Replaces every resolution (the server's host and the allowed names; tests). Without it the allowed
   * names are resolved by the frozen resolvers, and the server's host by the system (`systemLookup`) when
   * a policy is first put in force, later by the frozen resolvers (its addresses in force when they do
   * not answer: a name only the hosts file knows).
   */
  lookup?: Lookup;
  /** Replaces the machine's DNS servers as read when a policy is first put in force (tests). */
  resolvers?: Resolvers;
  /**
   * Starts the diversion (Linux: `startDiversion`); absent, allowed names are filtered by address only.
   * A diversion that does not start leaves the policy address-based (logged) until the next change.
   */
  diversion?: StartDiversion;
}

/** The policy in force: as the server sent it, and as resolved. */
interface InForce {
  policy: AgentNetworkPolicy;
  resolvedKey: string;
}

/**
 * Puts the contest's network policy in force and keeps it there. Every change runs after the one
 * before (never two firewall commands at once). Never throws: failures are logged and reported.
 */
export class NetworkGuard {
  private inForce: InForce | null = null;
  /** The version reported: the one in force, or the empty one followed (0 before any). */
  private version = 0;
  private error: string | null = null;
  /** Whether the saved file may hold a policy whose rules are in force (to lift them). */
  private maybeRules = false;
  private queue: Promise<void> = Promise.resolve();
  /** The re-resolution loop while a policy is in force. */
  private resolving: Periodic | null = null;
  /** The names that did not resolve at the last resolution, as logged. */
  private unresolved = '';
  /** The allowed host names the policy in force left out (they did not resolve when it was applied). */
  private leftOut: string[] = [];
  private stopped = false;
  private readonly stateFile: string;
  /** The DNS resolvers asked while a policy is in force, frozen when it was first put in force. */
  private upstream: Resolvers | null = null;
  /** The diversion running while a policy is in force (Linux). */
  private diversion: Diversion | null = null;
  /** The server's addresses in force (the firewall lets the agent reach these), while a policy is. */
  private pinned: PinnedServer | null = null;

  /**
   * The lookup (`dns.lookup`'s shape) of the agent's own connections to the server (client.ts,
   * policy-socket.ts): while a policy is in force the server's host answers the addresses the rules let
   * the agent reach, with no DNS question (the machine's resolv.conf may name a server the rules refuse);
   * otherwise, and for any other name, the system resolves.
   */
  readonly serverLookup = pinnedServerLookup(() => this.pinned);

  constructor(private readonly options: NetworkGuardOptions) {
    this.stateFile = path.join(options.dataDir, NETWORK_STATE_FILE);
  }

  /**
   * What the heartbeat says: the version in force, the last failure, and the allowed names the policy
   * in force left out (the lab board says «aplicada» only without them).
   */
  status(): NetworkStatus {
    return {
      network_version: this.version,
      ...(this.error ? { network_error: this.error } : {}),
      ...(this.leftOut.length > 0
        ? { network_unresolved: this.leftOut.slice(0, NETWORK_UNRESOLVED_MAX) }
        : {}),
      ...(this.inForce ? { network_filter: this.diversion ? 'name' : 'address' } : {}),
    };
  }

  /**
   * At start, before the first config: puts the saved policy back in force, if there is one (the
   * rules may be gone after a reboot). A missing or unreadable file: nothing.
   */
  restore(): Promise<void> {
    return this.serial(async () => {
      const saved = await this.readSaved();
      if (saved === null || saved.policy.allowed.length === 0) return;
      this.maybeRules = true;
      // At boot the network (or its DNS) may not answer yet: the addresses last applied stand in.
      if (await this.put(saved.policy, saved.resolved))
        this.options.log(TEXTS.networkRestored(saved.policy.version));
    });
  }

  /** Follows the config's policy: in force while it has destinations, lifted when it has none. */
  follow(policy: AgentNetworkPolicy): Promise<void> {
    return this.serial(async () => {
      if (policy.allowed.length === 0) {
        if (this.inForce !== null || this.maybeRules) {
          if (!(await this.lift())) return;
          this.options.log(TEXTS.networkLifted);
        }
        this.version = policy.version;
        this.error = null;
        this.leftOut = [];
        return;
      }
      const current = this.inForce?.policy;
      if (current && current.version === policy.version && sameList(current.allowed, policy.allowed)) return;
      if (await this.put(policy))
        this.options.log(TEXTS.networkApplied(policy.version, policy.allowed.length));
    });
  }

  /**
   * Stops resolving again and stops the diversion; the rules stay in force (a stopped agent does not
   * open the network: a contestant's DNS and web connections find nothing at the diverted ports).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled(this.resolving?.stop() ?? []);
    this.resolving = null;
    await this.queue;
    await this.diversion?.stop();
    this.diversion = null;
  }

  /** Runs `work` after what is queued. */
  private serial(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(work).catch((error: unknown) => {
      this.options.log(TEXTS.unexpected(describeError(error)));
    });
    return this.queue;
  }

  /**
   * Resolves and applies `policy` (with `fallback`'s addresses when the server's name does not resolve
   * now); saves both. Answers whether it is in force.
   */
  private async put(policy: AgentNetworkPolicy, fallback?: ResolvedPolicy): Promise<boolean> {
    let resolved: ResolvedPolicy;
    let leftOut: string[];
    try {
      // Frozen once: the saved ones at a restart, else the machine's now (a stub on loopback replaced
      // by the resolvers it asks).
      this.upstream ??= upstreamResolvers(
        fallback?.resolvers ?? this.options.resolvers ?? (await systemResolvers()),
      );
      const fresh = await this.resolve(policy, fallback).catch((error: unknown) => {
        if (fallback) return null;
        throw error;
      });
      // At boot a name that does not resolve yet would be left out: the addresses last applied stand in.
      resolved = fresh === null || (fallback && fresh.unresolved.length > 0) ? fallback! : fresh.policy;
      // Said as not resolved until a resolution finds them, even while old addresses stand in (they
      // may be stale): nothing resolved now (not even the server's name) leaves every name unchecked.
      leftOut = fresh === null ? hostNames(policy) : fresh.unresolved;
      // Set before applying: a partly applied policy (Windows has no transaction) is lifted later too.
      this.maybeRules = true;
      await this.startDiversion();
      // The filter and forwarder know the names before the rules send anything their way.
      this.diversion?.update(resolved, this.divertedNames(policy));
      await this.save(policy, resolved);
      await this.options.firewall.apply(resolved, this.diversion?.ports ?? null);
    } catch (error) {
      this.failed(describeError(error));
      return false;
    }
    this.inForce = { policy, resolvedKey: JSON.stringify(resolved) };
    this.pin(resolved);
    this.leftOut = leftOut;
    this.inForceNow(policy);
    this.startResolving();
    return true;
  }

  /** Starts the diversion once, if there is one; one that fails leaves the policy address-based. */
  private async startDiversion(): Promise<void> {
    if (this.diversion || !this.options.diversion || this.stopped) return;
    try {
      this.diversion = await this.options.diversion({ upstream: this.upstream ?? [], log: this.options.log });
    } catch (error) {
      this.options.log(TEXTS.networkDiversionFailed(describeError(error)));
    }
  }

  /** The names the forwarder answers: every allowed host name, and the server's when it is a name. */
  private divertedNames(policy: AgentNetworkPolicy): string[] {
    const server = new URL(this.options.server).hostname.replace(/^\[|\]$/g, '');
    return [...hostNames(policy), ...(ipVersion(server) === 0 ? [server] : [])];
  }

  /** The server's addresses of `resolved` are the ones the agent's connections use (`serverLookup`). */
  private pin(resolved: ResolvedPolicy): void {
    const host = new URL(this.options.server).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    this.pinned = { host, addresses: resolved.server.addresses };
  }

  /** `policy` is in force: reported (no error any more). */
  private inForceNow(policy: AgentNetworkPolicy): void {
    this.version = policy.version;
    this.error = null;
  }

  /**
   * Saves `policy` with its addresses `resolved`, before they are applied: an agent ended between the
   * two (a crash, a power cut) puts them back at its next start, never an older list.
   */
  private async save(policy: AgentNetworkPolicy, resolved: ResolvedPolicy): Promise<void> {
    try {
      await mkdir(this.options.dataDir, { recursive: true });
      await writeAtomically(this.stateFile, JSON.stringify({ ...policy, resolved }));
    } catch (error) {
      this.options.log(TEXTS.dataDir(this.options.dataDir, describeError(error)));
    }
  }

  /**
   * A policy could not be put in force: reported, and logged when the reason is new (each config read
   * tries again, e.g. once `nft` is installed, without a line every minute).
   */
  private failed(reason: string): void {
    const error = reason.slice(0, 300);
    if (error !== this.error) this.options.log(TEXTS.networkFailed(error));
    this.error = error;
  }

  /** Lifts the agent's rules and forgets the saved policy (`liftNetwork`). Answers whether it worked. */
  private async lift(): Promise<boolean> {
    try {
      await liftNetwork(this.options.firewall, this.options.dataDir);
    } catch (error) {
      this.error = describeError(error).slice(0, 300);
      this.options.log(TEXTS.networkLiftFailed(this.error));
      return false;
    }
    this.inForce = null;
    this.pinned = null;
    this.leftOut = [];
    this.maybeRules = false;
    this.resolving?.stop();
    this.resolving = null;
    // The next policy freezes the resolvers of its own time.
    this.upstream = null;
    await this.diversion?.stop();
    this.diversion = null;
    return true;
  }

  /**
   * Resolves `policy` (`fallback`: the saved one, at a restore); a name that does not resolve is logged
   * once, until the list of them changes.
   */
  private async resolve(
    policy: AgentNetworkPolicy,
    fallback?: ResolvedPolicy,
  ): Promise<{ policy: ResolvedPolicy; unresolved: string[] }> {
    const upstream = this.upstream ?? [];
    const asked = upstream.length > 0 ? upstreamLookup(upstream) : null;
    // Once a policy was in force the machine's resolv.conf is the console user's to change (and, after a
    // reboot, no rule keeps the agent off the server it names): the server's host is asked of the frozen
    // resolvers, its known addresses standing in when they do not know it (a hosts file entry).
    const known = this.pinned?.addresses ?? fallback?.server.addresses;
    const serverLookup: Lookup | null =
      asked && known
        ? async (host) =>
            asked(host).catch(() => known.map((a) => ({ address: a.address, family: a.version })))
        : null;
    const result = await resolvePolicy({
      server: this.options.server,
      allowed: policy.allowed,
      resolvers: upstream,
      ...(this.options.lookup
        ? { lookup: this.options.lookup }
        : {
            ...(serverLookup ? { lookup: serverLookup } : {}),
            ...(asked ? { nameLookup: asked } : {}),
          }),
    });
    const unresolved = result.unresolved.join(', ');
    if (unresolved !== this.unresolved && result.unresolved.length > 0)
      this.options.log(TEXTS.networkUnresolved(result.unresolved, this.retryMs()));
    this.unresolved = unresolved;
    return result;
  }

  /** The pause between two resolutions while some allowed name does not resolve (ms). */
  private retryMs(): number {
    const every = this.options.resolveMs ?? NETWORK_RESOLVE_MS;
    return Math.min(every, this.options.retryUnresolvedMs ?? NETWORK_RETRY_UNRESOLVED_MS);
  }

  /**
   * Every `resolveMs` while a policy is in force, every `retryUnresolvedMs` while some allowed name does
   * not resolve (`Periodic`: a slow round never piles up): applies it again when its addresses changed.
   */
  private startResolving(): void {
    if (this.resolving || this.stopped) return;
    const loop = (this.resolving = new Periodic((error) =>
      this.options.log(TEXTS.unexpected(describeError(error))),
    ));
    const next = () =>
      this.leftOut.length > 0 ? this.retryMs() : (this.options.resolveMs ?? NETWORK_RESOLVE_MS);
    loop.every(() => this.serial(() => this.resolveAgain()), next, next());
  }

  /** One round of `startResolving`. */
  private async resolveAgain(): Promise<void> {
    const current = this.inForce;
    if (current === null) return;
    let resolved: ResolvedPolicy;
    let unresolved: string[];
    try {
      ({ policy: resolved, unresolved } = await this.resolve(current.policy));
    } catch {
      return; // The server's name did not resolve now: the rules in force stay.
    }
    const key = JSON.stringify(resolved);
    this.diversion?.update(resolved, this.divertedNames(current.policy));
    if (key !== current.resolvedKey) {
      await this.save(current.policy, resolved);
      try {
        await this.options.firewall.apply(resolved, this.diversion?.ports ?? null);
      } catch (error) {
        this.failed(describeError(error));
        return;
      }
      current.resolvedKey = key;
      this.pin(resolved);
      this.options.log(TEXTS.networkReresolved(current.policy.version));
      this.inForceNow(current.policy);
    }
    if (this.leftOut.length > 0 && unresolved.length === 0)
      this.options.log(TEXTS.networkAllResolved(current.policy.version));
    this.leftOut = unresolved;
  }

  /** The saved policy and the addresses it was last applied with; null when none or unreadable. */
  private async readSaved(): Promise<{ policy: AgentNetworkPolicy; resolved?: ResolvedPolicy } | null> {
    try {
      const saved = JSON.parse(await readFile(this.stateFile, 'utf8')) as { resolved?: ResolvedPolicy };
      const policy = agentNetworkPolicySchema.safeParse(saved);
      if (!policy.success) return null;
      return {
        policy: policy.data,
        ...(isResolvedPolicy(saved.resolved) ? { resolved: saved.resolved } : {}),
      };
    } catch {
      return null;
    }
  }
}

/**
 * Whether a saved value is a resolved policy, every address an IP address of its version and every port
 * and prefix a number in range (the file may be old or edited, and its items go into a firewall script).
 */
function isResolvedPolicy(value: unknown): value is ResolvedPolicy {
  const v = value as Partial<ResolvedPolicy> | null | undefined;
  const whole = (n: unknown, min: number, max: number) =>
    typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;
  const address = (a: unknown) => {
    const item = a as { address?: unknown; version?: unknown } | null;
    return typeof item?.address === 'string' && ipVersion(item.address) === item.version;
  };
  const allowed = (a: unknown) => {
    const item = a as { prefix?: unknown; port?: unknown; version?: unknown; host?: unknown };
    return (
      address(a) &&
      (item.host === undefined || typeof item.host === 'string') &&
      (item.prefix === undefined || whole(item.prefix, 0, item.version === 4 ? 32 : 128)) &&
      (item.port === null || whole(item.port, 1, 65_535))
    );
  };
  return (
    typeof v === 'object' &&
    v !== null &&
    Array.isArray(v.resolvers) &&
    v.resolvers.every(address) &&
    Array.isArray(v.allowed) &&
    v.allowed.every(allowed) &&
    Array.isArray(v.server?.addresses) &&
    v.server.addresses.every(address) &&
    whole(v.server.port, 1, 65_535)
  );
}

/** The host names among `policy`'s allowed sites (what a resolution may leave out), in its order. */
function hostNames(policy: AgentNetworkPolicy): string[] {
  return policy.allowed.flatMap((site) => {
    const destination = parseDestination(site);
    return typeof destination !== 'string' && destination.kind === 'host' ? [destination.host] : [];
  });
}

/** Whether two lists hold the same sites in the same order. */
function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((site, i) => site === b[i]);
}

/**
 * `concurso-agent --levantar` (a technician): removes the agent's rules whatever the saved policy, and
 * forgets it. @throws FirewallError when the firewall refuses.
 */
export async function liftNetwork(firewall: Firewall, dataDir: string): Promise<void> {
  await firewall.lift();
  await rm(path.join(dataDir, NETWORK_STATE_FILE), { force: true });
}
