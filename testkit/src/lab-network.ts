import { execFile, spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { onProcessExit } from './processes.js';
import { within } from './waiting.js';

const run = promisify(execFile);

/**
 * A lab on this machine for the agent's network policy (agent/README.md, «Sitios permitidos»: the
 * agent's firewall is only ever tried in network namespaces a test creates, never in the machine's own,
 * which CI and the package registries run through). Two namespaces and two veth pairs, no route to
 * anywhere else:
 *
 *   this machine (the contest server on `serverAddress`) ── lab (the agent) ── outside
 *
 * "Outside" has the allowed web server (`allowedAddress`, named `permitido.prueba`), a forbidden one
 * (`forbiddenAddress`, `prohibido.prueba`), both on port 80, and the lab's DNS resolver
 * (`dnsAddress`, the lab's `/etc/netns/<lab>/resolv.conf`, which `ip netns exec` puts in place). The
 * allowed address also serves HTTPS on 443 for two names, `permitido.prueba` and `chat.prueba` (both
 * resolve to it; the body is the name asked by SNI, a certificate of both made here with the `openssl`
 * CLI), the way a shared host or CDN does. A contestant's ways out: a UDP echo on port 67 and a TCP echo
 * on `ECHO_PORT` at the forbidden address, TXT answers from the resolver, and a second "rogue" resolver
 * (`rogueDnsAddress`) answering every name with the forbidden address. Both resolvers note each query
 * (`dnsQueries`). The lab's resolver also names the contest server: `LAB_SERVER_NAME` is `serverAddress`.
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
  /** A second resolver outside: every name is the forbidden address (a console user's own DNS). */
  rogueDnsAddress: string;
  /** The lab machine's address on the outside's link (where a listener of the lab is reached from outside). */
  labAddress: string;
  /** The queries each outside resolver received so far, in order. */
  dnsQueries(): Array<{ resolver: 'dns' | 'rogue'; name: string; type: number }>;
  /** Spawns `command args` inside namespace `ns` (as `ip netns exec` does, resolv.conf included). */
  spawnIn(ns: string, command: string, args: readonly string[], options?: SpawnOptions): ChildProcess;
  /** Runs `command args` in `ns`; answers stdout. @throws on a non-zero exit. */
  runIn(ns: string, command: string, args: readonly string[], input?: string): Promise<string>;
  /**
   * `GET url` from the lab machine (a one-off Node process there): 'ok <body>' or 'error <code>', within
   * `timeoutMs` (ms).
   */
  fetchFromLab(url: string, timeoutMs?: number): Promise<string>;
  /**
   * Runs `command args` in the lab as a contestant (an ordinary account: `setpriv` to uid and gid 65534,
   * no groups); answers stdout and the exit code, never throws for a non-zero exit.
   */
  runAsContestant(command: string, args: readonly string[]): Promise<{ code: number | null; out: string }>;
  /** Spawns `command args` in the lab as a contestant (see `runAsContestant`). */
  spawnAsContestant(command: string, args: readonly string[], options?: SpawnOptions): ChildProcess;
  /**
   * A contestant's tunnel (spawned as `spawnAsContestant`, stdin and stdout piped): a long-lived TCP
   * connection from the lab to the echo at the forbidden address (`ECHO_PORT`). It sends 'uno' once
   * connected, then each line of its stdin; it prints 'eco <data>' for what comes back, and
   * 'error <code>' or 'cerrada' when the connection ends.
   */
  spawnTunnel(): ChildProcess;
  /** Names `address` as the lab's only DNS server (its resolv.conf, rewritten in place). */
  setLabResolver(address: string): Promise<void>;
  /** `nft list ruleset` of the lab. */
  labRuleset(): Promise<string>;
  /** Cuts (false) or restores (true) the lab's link to this machine: the contest server unreachable. */
  serverLink(up: boolean): Promise<void>;
  /** Stops the outside's servers and deletes both namespaces, their links and resolv.conf. */
  close(): Promise<void>;
}

/** The TCP port of the forbidden address's echo server (a contestant's tunnel end). */
export const ECHO_PORT = 7000;

/** The contest server's name as the lab's resolver answers it (`serverAddress`; the rogue: the forbidden one). */
export const LAB_SERVER_NAME = 'servidor.prueba';

/**
 * The outside's servers: HTTP on both web addresses, HTTPS on the allowed one (body: the SNI's first
 * label), a UDP echo on 67 and a TCP echo on `ECHO_PORT` at the forbidden one, the resolver (A of the
 * known names, TXT of any) and the rogue resolver (A of any name: the forbidden address). Each query is
 * written to stdout as `dns <resolver> <type> <name>`.
 */
const OUTSIDE_SERVERS = `
const http = require('node:http');
const https = require('node:https');
const net = require('node:net');
const fs = require('node:fs');
const dgram = require('node:dgram');
const [allowed, forbidden, dns, rogue, key, cert, echoPort, serverName, server] = process.argv.slice(1);
const names = { 'permitido.prueba': allowed, 'chat.prueba': allowed, 'prohibido.prueba': forbidden, [serverName]: server };
for (const [address, body] of [[allowed, 'permitido'], [forbidden, 'prohibido']]) {
  http.createServer((req, res) => res.end(body)).listen(80, address);
}
https
  .createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) =>
    res.end(String(req.socket.servername || '').split('.')[0]),
  )
  .listen(443, allowed);
const udpEcho = dgram.createSocket('udp4');
udpEcho.on('message', (data, peer) => udpEcho.send(data, peer.port, peer.address));
udpEcho.bind(67, forbidden);
net.createServer((socket) => socket.on('error', () => {}).pipe(socket)).listen(Number(echoPort), forbidden);
const answer = (type, data) => {
  const head = Buffer.alloc(12);
  head.writeUInt16BE(0xc00c, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt16BE(1, 4);
  head.writeUInt32BE(5, 6);
  head.writeUInt16BE(data.length, 10);
  return Buffer.concat([head, data]);
};
const ipv4 = (address) => Buffer.from(address.split('.').map(Number));
let pending = 2;
for (const [label, address] of [['dns', dns], ['rogue', rogue]]) {
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
    const name = labels.join('.').toLowerCase();
    process.stdout.write('dns ' + label + ' ' + type + ' ' + name + '\\n');
    const known = label === 'rogue' ? forbidden : names[name];
    const answers = [];
    if (type === 16) answers.push(answer(16, Buffer.concat([Buffer.from([6]), Buffer.from('tunel!')])));
    else if (known && type === 1) answers.push(answer(1, ipv4(known)));
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    // A response, recursion available; NXDOMAIN for a name it does not know (but a TXT).
    header.writeUInt16BE(known || type === 16 ? 0x8180 : 0x8183, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address);
  });
  socket.bind(53, address, () => {
    if (--pending === 0) process.stdout.write('listo\\n');
  });
}
`;

/** A contestant's tunnel to `address port` (`LabNetwork.spawnTunnel`). */
const TUNNEL = `
const socket = require('node:net').connect(Number(process.argv[2]), process.argv[1]);
socket.setEncoding('utf8');
socket.on('connect', () => socket.write('uno'));
socket.on('data', (data) => console.log('eco ' + data));
socket.on('error', (error) => console.log('error ' + error.code));
socket.on('close', () => { console.log('cerrada'); process.exit(0); });
process.stdin.setEncoding('utf8').on('data', (line) => socket.write(line.trim()));
`;

/** The lab's one-off fetch: prints 'ok <body>' or 'error <code>'. */
const LAB_FETCH = `
const [url, ms] = process.argv.slice(1);
fetch(url, { signal: AbortSignal.timeout(Number(ms)) })
  .then(async (res) => console.log('ok ' + (await res.text())))
  .catch((error) => console.log('error ' + (error.cause?.code ?? error.name)));
`;

/**
 * What this machine lacks to make a lab (root, `ip` and `nft`: scripts/test-env.sh installs them), or
 * null when nothing.
 */
async function labNetworkSupport(): Promise<string | null> {
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
 * @throws `npm test needs the lab network: <what is missing>` on a machine that cannot make one (not
 *   root, no `ip` or `nft`): the tests that need it fail, never skip; and when a namespace, link or
 *   server cannot be set up (whatever was made is removed first).
 */
export async function createLabNetwork(): Promise<LabNetwork> {
  const missing = await labNetworkSupport();
  if (missing) throw new Error(`npm test needs the lab network: ${missing}`);
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
  const rogueDnsAddress = `198.19.${n}.54`;
  // Interface names of at most 15 characters: this machine's and the lab's ends, the lab's and the outside's.
  const hostEnd = `vh${id}`;
  const labEnd = `vl${id}`;
  const labOut = `vo${id}`;
  const outEnd = `vx${id}`;
  const resolvDir = `/etc/netns/${lab}`;
  let servers: ChildProcess | null = null;
  let certDir: string | null = null;
  const queries: Array<{ resolver: 'dns' | 'rogue'; name: string; type: number }> = [];

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
    if (certDir) rmSync(certDir, { recursive: true, force: true });
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
    for (const address of [allowedAddress, forbiddenAddress, dnsAddress, rogueDnsAddress])
      await inNs(outside, 'ip', 'addr', 'add', `${address}/24`, 'dev', outEnd);
    await inNs(outside, 'ip', 'link', 'set', outEnd, 'up');
    await inNs(outside, 'ip', 'link', 'set', 'lo', 'up');
    // The HTTPS server's certificate, of both names (a contestant's curl -k takes any).
    certDir = await mkdtemp(path.join(tmpdir(), 'lab-cert-'));
    const key = path.join(certDir, 'key.pem');
    const cert = path.join(certDir, 'cert.pem');
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=permitido.prueba',
      '-addext',
      'subjectAltName=DNS:permitido.prueba,DNS:chat.prueba',
    ]);
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
        rogueDnsAddress,
        key,
        cert,
        String(ECHO_PORT),
        LAB_SERVER_NAME,
        serverAddress,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let buffered = '';
    let ready: () => void = () => undefined;
    servers.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const query = /^dns (dns|rogue) (\d+) (\S*)$/.exec(line);
        if (query)
          queries.push({ resolver: query[1] as 'dns' | 'rogue', type: Number(query[2]), name: query[3]! });
        else if (line === 'listo') ready();
      }
    });
    await within(
      10_000,
      new Promise<void>((resolve, reject) => {
        ready = resolve;
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
  /** `setpriv`'s prefix: the nobody account (uid and gid 65534), no supplementary groups. */
  const CONTESTANT = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
  const spawnAsContestant = (command: string, args: readonly string[], options: SpawnOptions = {}) =>
    spawn('ip', ['netns', 'exec', lab, ...CONTESTANT, command, ...args], options);

  return {
    lab,
    outside,
    serverAddress,
    allowedAddress,
    forbiddenAddress,
    dnsAddress,
    rogueDnsAddress,
    labAddress: labToOutside,
    dnsQueries: () => [...queries],
    spawnIn: (ns, command, args, options = {}) =>
      spawn('ip', ['netns', 'exec', ns, command, ...args], options),
    runIn,
    fetchFromLab: async (url, timeoutMs = 1_500) =>
      (await runIn(lab, process.execPath, ['-e', LAB_FETCH, url, String(timeoutMs)])).trim(),
    runAsContestant: async (command, args) => {
      const child = spawnAsContestant(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.stderr!.resume();
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      return { code, out };
    },
    spawnAsContestant,
    spawnTunnel: () =>
      spawnAsContestant(process.execPath, ['-e', TUNNEL, forbiddenAddress, String(ECHO_PORT)], {
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    setLabResolver: async (address) => {
      await writeFile(`${resolvDir}/resolv.conf`, `nameserver ${address}\n`);
    },
    labRuleset: () => runIn(lab, 'nft', ['list', 'ruleset']),
    serverLink: async (up) => {
      await inNs(lab, 'ip', 'link', 'set', labEnd, up ? 'up' : 'down');
    },
    close,
  };
}
