import { execFile, spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { onProcessExit } from './processes.js';
import { within } from './waiting.js';

const run = promisify(execFile);

/**
 * A lab on this machine for issue 25's network policy (DESIGN.md section 6a: the agent's firewall is
 * only ever tried in network namespaces a test creates, never in the machine's own, which CI and the
 * package registries run through). Two namespaces and two veth pairs, no route to anywhere else:
 *
 *   this machine (the contest server on `serverAddress`) ── lab (the agent) ── outside
 *
 * "Outside" has the allowed web server (`allowedAddress`, named `permitido.prueba`), a forbidden one
 * (`forbiddenAddress`, `prohibido.prueba`), both on port 80, and the lab's DNS resolver
 * (`dnsAddress`, the lab's `/etc/netns/<lab>/resolv.conf`, which `ip netns exec` puts in place).
 * Addresses are of 198.18.N.0/24 and 198.19.N.0/24 (RFC 2544's range for tests, which no real network
 * uses), N random per lab. The one piece in this machine's own namespace is its end of the first veth
 * pair (an address and its /24 route, nothing else: no firewall rule); it is removed by `close()`, or at
 * the latest when the test process exits.
 */
export interface LabNetwork {
  /** The lab machine's namespace (`ip netns exec <lab> …`). */
  lab: string;
  /** The outside's namespace. */
  outside: string;
  /** This machine's address on the lab's link: where the contest server listens. */
  serverAddress: string;
  allowedAddress: string;
  forbiddenAddress: string;
  dnsAddress: string;
  /** Spawns `command args` inside namespace `ns` (as `ip netns exec` does, resolv.conf included). */
  spawnIn(ns: string, command: string, args: readonly string[], options?: SpawnOptions): ChildProcess;
  /** Runs `command args` in `ns`; answers stdout. @throws on a non-zero exit. */
  runIn(ns: string, command: string, args: readonly string[], input?: string): Promise<string>;
  /**
   * `GET url` from the lab machine (a one-off Node process there): 'ok <body>' or 'error <code>', within
   * `timeoutMs` (ms).
   */
  fetchFromLab(url: string, timeoutMs?: number): Promise<string>;
  /** `nft list ruleset` of the lab. */
  labRuleset(): Promise<string>;
  /** Cuts (false) or restores (true) the lab's link to this machine: the contest server unreachable. */
  serverLink(up: boolean): Promise<void>;
  /** Stops the outside's servers and deletes both namespaces, their links and resolv.conf. */
  close(): Promise<void>;
}

/** The outside's servers: two HTTP servers and a DNS server answering A of the two names. */
const OUTSIDE_SERVERS = `
const http = require('node:http');
const dgram = require('node:dgram');
const [allowed, forbidden, dns] = process.argv.slice(1);
const names = { 'permitido.prueba': allowed, 'prohibido.prueba': forbidden };
for (const [address, body] of [[allowed, 'permitido'], [forbidden, 'prohibido']]) {
  http.createServer((req, res) => res.end(body)).listen(80, address);
}
const socket = dgram.createSocket('udp4');
socket.on('message', (query, peer) => {
  let offset = 12;
  const labels = [];
  while (query[offset] > 0) {
    labels.push(query.subarray(offset + 1, offset + 1 + query[offset]).toString());
    offset += query[offset] + 1;
  }
  const question = query.subarray(12, offset + 5);
  const type = query.readUInt16BE(offset + 1);
  const address = names[labels.join('.').toLowerCase()];
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  // A response, recursion available; NXDOMAIN for a name it does not know.
  header.writeUInt16BE(address ? 0x8180 : 0x8183, 2);
  header.writeUInt16BE(1, 4);
  const answers = [];
  if (address && type === 1) {
    const answer = Buffer.alloc(16);
    answer.writeUInt16BE(0xc00c, 0);
    answer.writeUInt16BE(1, 2);
    answer.writeUInt16BE(1, 4);
    answer.writeUInt32BE(5, 6);
    answer.writeUInt16BE(4, 10);
    address.split('.').forEach((part, i) => (answer[12 + i] = Number(part)));
    answers.push(answer);
  }
  header.writeUInt16BE(answers.length, 6);
  socket.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address);
});
socket.bind(53, dns, () => process.stdout.write('listo\\n'));
`;

/** The lab's one-off fetch: prints 'ok <body>' or 'error <code>'. */
const LAB_FETCH = `
const [url, ms] = process.argv.slice(1);
fetch(url, { signal: AbortSignal.timeout(Number(ms)) })
  .then(async (res) => console.log('ok ' + (await res.text())))
  .catch((error) => console.log('error ' + (error.cause?.code ?? error.name)));
`;

/** Whether this machine can make a lab: root, `ip` and `nft` (scripts/test-env.sh installs them). */
export async function labNetworkSupport(): Promise<string | null> {
  if (process.getuid?.() !== 0) return 'the lab network needs root (network namespaces)';
  for (const [tool, flag] of [
    ['ip', '-V'],
    ['nft', '--version'],
  ] as const) {
    try {
      await run(tool, [flag]);
    } catch {
      return `${tool} is missing: run scripts/test-env.sh (Debian's iproute2 and nftables)`;
    }
  }
  return null;
}

/**
 * Creates the lab (see `LabNetwork`) and starts the outside's servers.
 * @throws when a namespace, link or server cannot be set up (whatever was made is removed first).
 */
export async function createLabNetwork(): Promise<LabNetwork> {
  const id = randomBytes(3).toString('hex');
  const n = 1 + (parseInt(id, 16) % 250);
  const lab = `clab-${id}`;
  const outside = `cout-${id}`;
  const serverAddress = `198.18.${n}.1`;
  const labToServer = `198.18.${n}.2`;
  const labToOutside = `198.19.${n}.2`;
  const allowedAddress = `198.19.${n}.1`;
  const forbiddenAddress = `198.19.${n}.3`;
  const dnsAddress = `198.19.${n}.53`;
  // Interface names of at most 15 characters: this machine's and the lab's ends, the lab's and the outside's.
  const hostEnd = `vh${id}`;
  const labEnd = `vl${id}`;
  const labOut = `vo${id}`;
  const outEnd = `vx${id}`;
  const resolvDir = `/etc/netns/${lab}`;
  let servers: ChildProcess | null = null;

  const ip = (...args: string[]) => run('ip', args);
  const inNs = (ns: string, ...args: string[]) => run('ip', ['netns', 'exec', ns, ...args]);
  /** Ends every process left in the namespaces (an agent a test did not stop), then removes them. */
  const removeSync = () => {
    servers?.kill('SIGKILL');
    for (const ns of [lab, outside]) {
      const pids = spawnSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' }).stdout ?? '';
      for (const pid of pids.split('\n').filter(Boolean)) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      spawnSync('ip', ['netns', 'del', ns]);
    }
    spawnSync('ip', ['link', 'del', hostEnd]);
    rmSync(resolvDir, { recursive: true, force: true });
  };
  // A test process that dies (a crash, Ctrl-C) leaves no namespace, link or route behind.
  const offExit = onProcessExit(removeSync);
  const close = async () => {
    offExit();
    removeSync();
  };

  try {
    await ip('netns', 'add', lab);
    await ip('netns', 'add', outside);
    await mkdir(resolvDir, { recursive: true });
    await writeFile(`${resolvDir}/resolv.conf`, `nameserver ${dnsAddress}\n`);
    // This machine ⇄ lab.
    await ip('link', 'add', hostEnd, 'type', 'veth', 'peer', 'name', labEnd);
    await ip('link', 'set', labEnd, 'netns', lab);
    await ip('addr', 'add', `${serverAddress}/24`, 'dev', hostEnd);
    await ip('link', 'set', hostEnd, 'up');
    await inNs(lab, 'ip', 'addr', 'add', `${labToServer}/24`, 'dev', labEnd);
    await inNs(lab, 'ip', 'link', 'set', labEnd, 'up');
    await inNs(lab, 'ip', 'link', 'set', 'lo', 'up');
    // Lab ⇄ outside.
    await ip('link', 'add', labOut, 'netns', lab, 'type', 'veth', 'peer', 'name', outEnd, 'netns', outside);
    await inNs(lab, 'ip', 'addr', 'add', `${labToOutside}/24`, 'dev', labOut);
    await inNs(lab, 'ip', 'link', 'set', labOut, 'up');
    for (const address of [allowedAddress, forbiddenAddress, dnsAddress])
      await inNs(outside, 'ip', 'addr', 'add', `${address}/24`, 'dev', outEnd);
    await inNs(outside, 'ip', 'link', 'set', outEnd, 'up');
    await inNs(outside, 'ip', 'link', 'set', 'lo', 'up');
    servers = spawn(
      'ip',
      [
        'netns',
        'exec',
        outside,
        process.execPath,
        '-e',
        OUTSIDE_SERVERS,
        allowedAddress,
        forbiddenAddress,
        dnsAddress,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await within(
      10_000,
      new Promise<void>((resolve, reject) => {
        servers!.stdout!.once('data', () => resolve());
        servers!.once('error', reject);
        servers!.once('exit', (code) => reject(new Error(`the outside's servers exited (${code})`)));
      }),
    );
  } catch (error) {
    await close();
    throw error;
  }

  const runIn = async (ns: string, command: string, args: readonly string[], input?: string) => {
    const child = spawn('ip', ['netns', 'exec', ns, command, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    // A command that reads no input (nft list) may exit before this is written: its EPIPE is no failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    if (code !== 0) throw new Error(`${command} ${args.join(' ')} in ${ns}: ${code} ${err.trim()}`);
    return out;
  };

  return {
    lab,
    outside,
    serverAddress,
    allowedAddress,
    forbiddenAddress,
    dnsAddress,
    spawnIn: (ns, command, args, options = {}) =>
      spawn('ip', ['netns', 'exec', ns, command, ...args], options),
    runIn,
    fetchFromLab: async (url, timeoutMs = 1_500) =>
      (await runIn(lab, process.execPath, ['-e', LAB_FETCH, url, String(timeoutMs)])).trim(),
    labRuleset: () => runIn(lab, 'nft', ['list', 'ruleset']),
    serverLink: async (up) => {
      await inNs(lab, 'ip', 'link', 'set', labEnd, up ? 'up' : 'down');
    },
    close,
  };
}
