/**
 * The machine agent (docs/design.md section 6): reads its team's config, then polls the process list,
 * ends every blocked process, queues one attempt per ended instance in a file-backed outbox and
 * delivers it to the server; sends heartbeats and refreshes the blocked list without restarting.
 * A process is blocked by its file name or, failing that, by its executable's SHA-256 being
 * one of the config's fingerprints (a renamed copy); each attempt carries the fingerprint; and while
 * the contest observes, the executables started on the machine are reported (observed.ts), and
 * the contest's network policy is kept in force in the machine's firewall (network/network-guard.ts).
 */
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { embeddedWindowsLister } from './windows-lister.js';
import type { AgentConfig } from '@concurso/shared';
import type { AgentHandle, AgentOptions } from './agent-options.js';
import { AgentClient, DEFAULT_REQUEST_TIMEOUT_MS, normaliseServerUrl } from './client.js';
import { AgentApiError, AgentError, describeError } from './errors.js';
import { AGENT_RETRY_PROBE_MS } from './agent-options.js';
import { ConnectingAgent, startFailure } from './connecting-agent.js';
import { AgentLock, LockHeldError } from './lock.js';
import { NetworkGuard } from './network/network-guard.js';
import { defaultFirewall } from './network/firewall.js';
import { startDiversion } from './network/diversion.js';
import { Outbox } from './outbox.js';
import { RunningAgent } from './running-agent.js';
import { SavedConfig } from './saved-config.js';
import { insecureFolder } from './secure-path.js';
import { windowsAcl } from './windows-acl.js';
import { TEXTS } from './texts.js';

export { AgentError } from './errors.js';
// The options, handle and stats of a running agent, and its periods (agent-options.ts).
export * from './agent-options.js';

/** Default data folder: `~/.concurso-agent` (independent of the working directory). */
export function defaultDataDir(): string {
  return path.join(homedir(), '.concurso-agent');
}

/**
 * Starts the agent: checks the options and the data folder, puts the saved network policy back, reads
 * the config, opens the team's outbox and lock, and hands them to the running agent
 * (running-agent.ts), which starts its loops unless `loop` is false. Every config it takes is saved in
 * the data folder (saved-config.ts). When the server does not answer (no connection, timeout, 5xx, 429)
 * and the loops are to run, it never fails for that: it answers a `ConnectingAgent`
 * (connecting-agent.ts), which enforces the saved config meanwhile and goes on as a normal start as
 * soon as the server answers; a permanent refusal then goes to `options.onFatal`.
 *
 * Throws an `AgentError` (one Spanish line in `message`) when the options are wrong, the data folder
 * is unusable or not safe (secure-path.ts: not owned by root or the running account, or writable by
 * others), the key is bad or revoked (401), there is no contest, another agent of the same team uses
 * the same data folder, or (only with `loop: false`, the CLI's `--once`) the server cannot be reached.
 */
export async function startAgent(options: AgentOptions): Promise<AgentHandle> {
  const log = options.log ?? (() => undefined);
  const server = checkOptions(options);
  const key = options.key.trim();
  const lifetime = new AbortController();
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir());
  // Before anything in the folder is read: a planted policy, config or lock must not be trusted.
  await secureDataDir(dataDir, log);
  // The last network policy is back in force before the server is asked anything, and
  // stays when it does not answer (the rules outlive this process).
  const network = new NetworkGuard({
    firewall: options.firewall ?? defaultFirewall(),
    dataDir,
    server,
    log,
    // Linux's own firewall diverts a contestant's DNS and web connections to the agent's filter.
    ...(options.firewall === undefined && process.platform === 'linux' ? { diversion: startDiversion } : {}),
  });
  // The server's addresses come from the guard while a policy is in force (a restored one too): a
  // change of the machine's DNS servers does not cut the agent off its server.
  const client = new AgentClient({
    server,
    key,
    timeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    signal: lifetime.signal,
    lookup: network.serverLookup,
  });
  await network.restore();
  const saved = new SavedConfig({
    file: path.join(dataDir, `config-${serverSlug(server)}.json`),
    server,
    key,
    log,
  });
  /** The running agent of `config`, with its storage; no loop started. */
  const prepare = async (config: AgentConfig): Promise<RunningAgent> => {
    const storage = await openStorage(dataDir, server, config.team.id, log);
    // The single executable on Windows lists processes with the helper it carries, written
    // into its data folder; elsewhere the default lister (scanner.ts).
    const lister = options.lister ?? (await embeddedWindowsLister(dataDir));
    return new RunningAgent({
      options: lister ? { ...options, lister } : options,
      client,
      lifetime,
      config,
      dataDir,
      storage,
      network,
      log,
      saved,
    });
  };
  let agent: RunningAgent;
  try {
    let config: AgentConfig;
    try {
      config = await client.getConfig();
    } catch (error) {
      const { fatal } = startFailure(error);
      if (fatal) throw fatal;
      // `--once` is one look, not a service: it says the server is not there, as it always did.
      if (!(options.loop ?? true)) throw unreachableError(error);
      return await ConnectingAgent.start(
        {
          client,
          lifetime,
          network,
          log,
          dataDir,
          saved: await saved.load(),
          prepare,
          retryProbeMs: options.retryProbeMs ?? AGENT_RETRY_PROBE_MS,
          onFatal: options.onFatal,
        },
        error,
      );
    }
    agent = await prepare(config);
  } catch (error) {
    await network.stop();
    throw error;
  }
  agent.announce();
  if (options.loop ?? true) agent.startLoops();
  return agent;
}

/**
 * Creates the data folder when missing (only its owner may enter it) and checks that nobody but root
 * or the running account could have written it (secure-path.ts; on Windows SYSTEM, the administrators
 * or the running account, windows-acl.ts). @throws AgentError('data-dir').
 */
async function secureDataDir(dataDir: string, log: (line: string) => void): Promise<void> {
  let bad;
  try {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    bad = await insecureFolder(dataDir);
  } catch (error) {
    throw new AgentError('data-dir', TEXTS.dataDir(dataDir, describeError(error)));
  }
  if (bad) {
    const asRoot = typeof process.getuid !== 'function' || process.getuid() === 0;
    throw new AgentError('data-dir', TEXTS.dataDirUnsafe(dataDir, bad, asRoot));
  }
  if (process.platform !== 'win32') return;
  // Windows: the ACL, through PowerShell (windows-acl.ts); a best effort that refuses only what it read.
  const acl = await windowsAcl(dataDir);
  if (acl === null) log(TEXTS.aclUnchecked(dataDir));
  else if (!acl.ownerTrusted || acl.untrustedWriters.length > 0)
    throw new AgentError('data-dir', TEXTS.dataDirUnsafeWindows(dataDir, acl.owner, acl.untrustedWriters));
}

/** A transient failure of the first config read as `--once` reports it. */
function unreachableError(error: unknown): AgentError {
  const kind = error instanceof AgentApiError ? error.kind : 'unreachable';
  const code = kind === 'unreachable' || kind === 'timeout' ? 'unreachable' : 'server';
  return new AgentError(code, describeError(error), { cause: error });
}

/** Validates the options; answers the normalised server URL. */
function checkOptions(options: AgentOptions): string {
  if (!options.server || options.server.trim() === '')
    throw new AgentError('invalid-options', TEXTS.missingServer);
  const server = normaliseServerUrl(options.server);
  if (server === null) throw new AgentError('invalid-options', TEXTS.invalidServer(options.server));
  if (!options.key || options.key.trim() === '') throw new AgentError('invalid-options', TEXTS.missingKey);
  // Printable ASCII only: a space or a second line means a bad copy, and fetch would refuse the header
  // with an error that quotes the key.
  if (!/^[\x21-\x7e]+$/.test(options.key.trim())) throw new AgentError('invalid-options', TEXTS.malformedKey);
  const periods: [string, number | undefined, number][] = [
    ['pollMs', options.pollMs, 1],
    ['heartbeatMs', options.heartbeatMs, 1],
    ['configRefreshMs', options.configRefreshMs, 1],
    ['retryProbeMs', options.retryProbeMs, 1],
    ['observedReportMs', options.observedReportMs, 1],
    ['requestTimeoutMs', options.requestTimeoutMs, 1],
    ['graceMs', options.graceMs, 0],
  ];
  for (const [name, value, min] of periods) {
    if (value !== undefined && (!Number.isInteger(value) || value < min)) {
      throw new AgentError('invalid-options', TEXTS.invalidNumber(name));
    }
  }
  return server;
}

/** Opens the team's outbox and lock in the data folder. Files are per server and team. */
async function openStorage(
  dataDir: string,
  server: string,
  teamId: number,
  log: (line: string) => void,
): Promise<{ outbox: Outbox; lock: AgentLock }> {
  const name = `${serverSlug(server)}-team-${teamId}`;
  try {
    await mkdir(dataDir, { recursive: true });
  } catch (error) {
    throw new AgentError('data-dir', TEXTS.dataDir(dataDir, describeError(error)));
  }
  let lock: AgentLock;
  try {
    lock = await AgentLock.acquire(path.join(dataDir, `agent-${name}.lock`));
  } catch (error) {
    if (error instanceof LockHeldError) throw new AgentError('locked', TEXTS.locked(error.pid));
    throw new AgentError('data-dir', TEXTS.dataDir(dataDir, describeError(error)));
  }
  try {
    const outbox = await Outbox.open(path.join(dataDir, `outbox-${name}.json`), {
      refusedFile: path.join(dataDir, `refused-${name}.json`),
      onCorrupt: (file, movedTo) => log(TEXTS.outboxCorrupt(file, movedTo)),
    });
    return { outbox, lock };
  } catch (error) {
    await lock.release();
    throw new AgentError('data-dir', TEXTS.dataDir(dataDir, describeError(error)));
  }
}

/** A file-name-safe form of the server URL, e.g. `127.0.0.1_3000`. */
function serverSlug(server: string): string {
  const url = new URL(server);
  return `${url.host}${url.pathname}`.replace(/[^A-Za-z0-9.-]+/g, '_').replace(/_+$/, '');
}
