/**
 * Command line of the agent: `npm run agent -- --server <url> --key-file <ruta>` (or the key in
 * `CONCURSO_AGENT_KEY`; never on the command line, see cli-args.ts).
 * Prints one timestamped Spanish line per event on stdout. Any fatal problem (missing option, bad
 * key, no contest, an unsafe data folder) is one Spanish line on stderr and exit code 1, never a stack
 * trace. An unreachable server is not fatal (connecting-agent.ts), except with `--once`. No
 * line ever holds the key: errors print only their own Spanish message, never a request or its headers.
 */
import path from 'node:path';
import { Agent, setGlobalDispatcher } from 'undici';
import { defaultDataDir, startAgent, type AgentHandle } from './agent.js';
import { parseCli, USAGE } from './cli-args.js';
import { describeError } from './errors.js';
import { readKeyFile } from './key-file.js';
import { defaultFirewall } from './network/firewall.js';
import { liftNetwork } from './network/network-guard.js';
import { TEXTS } from './texts.js';
import { agentBuild } from './version.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** Local time as `YYYY-MM-DD HH:MM:SS`: lab logs are read by people in the lab's time zone. */
function timestamp(date = new Date()): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

function log(line: string): void {
  process.stdout.write(`[${timestamp()}] ${line}\n`);
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const parsed = parseCli(process.argv.slice(2), process.env);
  if (parsed.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (parsed.kind === 'version') {
    process.stdout.write(`${agentBuild()}\n`);
    return;
  }
  if (parsed.kind === 'error') fail(parsed.message);
  if (parsed.kind === 'lift') {
    try {
      await liftNetwork(defaultFirewall(), path.resolve(parsed.dataDir ?? defaultDataDir()));
    } catch (error) {
      fail(TEXTS.networkLiftFailed(describeError(error)));
    }
    log(TEXTS.liftDone);
    return;
  }
  const { settings } = parsed;
  // The agent's HTTP connections without TCP keep-alive probes. Wine's sockets (where the
  // Windows executable is tested) refuse SO_KEEPALIVE on a socket still connecting, which is when
  // fetch sets it; the agent's connections are short or kept busy by its heartbeats anyway.
  setGlobalDispatcher(new Agent({ connect: { keepAlive: false } }));
  // The key now lives in `settings`; the helpers ps-list starts (ps, fastlist.exe) need not inherit it.
  delete process.env.CONCURSO_AGENT_KEY;

  let key: string;
  try {
    key = settings.key.kind === 'file' ? await readKeyFile(settings.key.path) : settings.key.key;
  } catch (error) {
    fail(describeError(error));
  }

  let agent: AgentHandle;
  try {
    agent = await startAgent({
      server: settings.server,
      key,
      ...(settings.dataDir !== undefined ? { dataDir: settings.dataDir } : {}),
      ...(settings.pollMs !== undefined ? { pollMs: settings.pollMs } : {}),
      ...(settings.graceMs !== undefined ? { graceMs: settings.graceMs } : {}),
      dryRun: settings.dryRun,
      loop: !settings.once,
      log,
      // Started without the server, then refused for good once it answered (a wrong key...).
      onFatal: (error) => fail(error.message),
    });
  } catch (error) {
    fail(describeError(error));
  }

  if (settings.once) {
    await agent.sweep();
    await agent.flush();
    await agent.stop();
    const { pending } = agent.stats;
    if (pending > 0) log(TEXTS.oncePending(pending));
    process.exit(0);
  }

  let stopping = false;
  const shutdown = () => {
    // A second Ctrl+C does not wait: the outbox is already on disk.
    if (stopping) process.exit(130);
    stopping = true;
    log(TEXTS.stopping);
    void agent.stop().then(() => {
      log(TEXTS.stopped(agent.stats.pending));
      process.exit(0);
    });
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => fail(TEXTS.unexpected(describeError(error))));
