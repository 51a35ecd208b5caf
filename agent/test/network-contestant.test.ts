import type { ChildProcess } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ECHO_PORT,
  agentTeam,
  callAs,
  createContest,
  createLabNetwork,
  labNetworkSupport,
  signInStaff,
  startTestServer,
  type LabNetwork,
  type TestServer,
} from '@concurso/testkit';
import { cleanUp, tempDir } from './helpers/processes.js';

const BIN = fileURLToPath(new URL('../bin/concurso-agent.js', import.meta.url));

/** A UDP datagram to `address port` from an ordinary port: 'eco' when it comes back within 1.5 s. */
const UDP_PROBE = `
const socket = require('node:dgram').createSocket('udp4');
const [address, port] = process.argv.slice(1);
const done = (what) => { console.log(what); process.exit(0); };
socket.on('message', () => done('eco'));
socket.on('error', (error) => done('error ' + error.code));
socket.send('hola', Number(port), address);
setTimeout(() => done('nada'), 1500);
`;

/**
 * A long-lived TCP connection (a tunnel's end) to the echo at `address port`: sends each line of its
 * stdin, prints 'eco <data>' for what comes back, and 'error <code>' or 'cerrada' when it ends.
 */
const TUNNEL = `
const socket = require('node:net').connect(Number(process.argv[2]), process.argv[1]);
socket.setEncoding('utf8');
socket.on('connect', () => socket.write('uno'));
socket.on('data', (data) => console.log('eco ' + data));
socket.on('error', (error) => console.log('error ' + error.code));
socket.on('close', () => { console.log('cerrada'); process.exit(0); });
process.stdin.setEncoding('utf8').on('data', (line) => socket.write(line.trim()));
`;

/** A DNS question through the machine's resolver (its resolv.conf): 'ok <answers>' or 'error <code>'. */
const DNS_QUERY = `
const { Resolver } = require('node:dns').promises;
const resolver = new Resolver({ timeout: 1500, tries: 1 });
const [type, name] = process.argv.slice(1);
resolver.resolve(name, type).then(
  (answers) => console.log('ok ' + JSON.stringify(answers)),
  (error) => console.log('error ' + error.code),
);
`;

/** A listener on the lab machine (`address port`): prints 'escuchando', then 'conexion' per client. */
const LISTENER = `
require('node:net')
  .createServer((socket) => { console.log('conexion'); socket.on('error', () => {}).end('hola'); })
  .listen(Number(process.argv[2]), process.argv[1], () => console.log('escuchando'));
`;

/** Connects from outside to `address port`: 'conectada', 'error <code>' or 'sin respuesta' (1.5 s). */
const CONNECT = `
const socket = require('node:net').connect(Number(process.argv[2]), process.argv[1]);
const done = (what) => { console.log(what); process.exit(0); };
socket.on('connect', () => done('conectada'));
socket.on('error', (error) => done('error ' + error.code));
setTimeout(() => done('sin respuesta'), 1500);
`;

/**
 * What a prepared contestant (an ordinary account, no root) tries on a lab machine whose contest allows
 * `permitido.prueba` only, against the real agent run as a lab runs it (the CLI as root, in a network
 * namespace of its own: testkit's `createLabNetwork`, never the machine's own) and the real server.
 * Each way out works before the policy (so its refusal below is the policy's doing) and is refused once
 * the policy is in force: another site on the allowed address (TLS SNI), a UDP relay on the DHCP port,
 * a tunnel opened before the policy, DNS tunnelling (TXT, other names), a listener reached from
 * outside, and a DNS server of the console user's choosing.
 */
describe('a contestant on a lab machine with a network policy (Linux)', () => {
  let net: LabNetwork;
  let server: TestServer;
  let admin: string;
  let contestId: number;
  let keyFile: string;
  let dataDir: string;
  const children: ChildProcess[] = [];
  /** The tunnel opened before the policy, and what it printed. */
  let tunnel: { child: ChildProcess; output: string[] };
  let listener: ChildProcess;
  let agentOutput: string[] = [];

  const curl = (args: string[]) => net.runAsContestant('curl', ['-sk', '--max-time', '3', ...args]);
  const chatOnAllowedAddress = () =>
    curl(['--resolve', `chat.prueba:443:${net.allowedAddress}`, 'https://chat.prueba/']);
  const udpToRelay = async () =>
    (await net.runAsContestant(process.execPath, ['-e', UDP_PROBE, net.forbiddenAddress, '67'])).out.trim();
  const dns = async (type: string, name: string) =>
    (await net.runAsContestant(process.execPath, ['-e', DNS_QUERY, type, name])).out.trim();
  const fromOutside = async () =>
    (await net.runIn(net.outside, process.execPath, ['-e', CONNECT, net.labAddress, '7071'])).trim();
  const setSites = async (sites: string[]) => {
    const res = await callAs(server.app, admin, '/api/updateAllowedSites', {
      contests_id: contestId,
      allowed_sites: sites,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** Output lines of a child, as they come. */
  const lines = (child: ChildProcess) => {
    const output: string[] = [];
    let rest = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop()!;
      output.push(...parts);
    });
    return output;
  };
  const startAgent = () => {
    const child = net.spawnIn(
      net.lab,
      process.execPath,
      [BIN, '--server', server.url, '--key-file', keyFile, '--data-dir', dataDir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const output = lines(child);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => output.push(chunk));
    children.push(child);
    return { child, output };
  };
  /** Milliseconds from now until the agent's table is in the lab's ruleset (polled every ~20 ms). */
  const untilInForce = async (since: number) => {
    for (;;) {
      if ((await net.labRuleset()).includes('table inet concurso')) return performance.now() - since;
      if (performance.now() - since > 15_000) throw new Error('the policy was not put in force in 15 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  beforeAll(async () => {
    const missing = await labNetworkSupport();
    if (missing) throw new Error(`npm test needs the lab network: ${missing}`);
    net = await createLabNetwork();
    server = await startTestServer({ agentOfflineAfterMs: 3_000 }, { host: net.serverAddress });
    ({ admin } = await signInStaff(server, 'contestant'));
    contestId = (await createContest(server.orm)).id;
    const team = await agentTeam(server, admin, { contestId, name: 'Los Astutos' });
    keyFile = path.join(await tempDir('agent-contestant-key-'), 'concurso-agent.key');
    await writeFile(keyFile, `${team.key}\n`);
    await chmod(keyFile, 0o600);
    dataDir = await tempDir('agent-contestant-data-');
  }, 60_000);

  afterAll(async () => {
    children.forEach((child) => child.kill('SIGKILL'));
    await cleanUp();
    server?.app.server.closeAllConnections();
    await server?.close();
    await net?.close();
  }, 60_000);

  it('before the policy every way out works (so each refusal below is the policy’s)', async () => {
    expect((await chatOnAllowedAddress()).out).toBe('chat');
    expect((await curl(['https://permitido.prueba/'])).out).toBe('permitido');
    expect(await udpToRelay()).toBe('eco');
    expect(await dns('TXT', 'datos.tunel.prueba')).toBe('ok [["tunel!"]]');
    expect(await dns('A', 'chat.prueba')).toBe(`ok ["${net.allowedAddress}"]`);
    // The tunnel, opened now and kept.
    const child = net.spawnAsContestant(
      process.execPath,
      ['-e', TUNNEL, net.forbiddenAddress, String(ECHO_PORT)],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    children.push(child);
    tunnel = { child, output: lines(child) };
    await expect.poll(() => tunnel.output, { timeout: 5_000 }).toContain('eco uno');
    // A listener of the contestant's on the lab machine, reached from outside.
    listener = net.spawnAsContestant(process.execPath, ['-e', LISTENER, net.labAddress, '7071'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(listener);
    const said = lines(listener);
    await expect.poll(() => said, { timeout: 5_000 }).toContain('escuchando');
    expect(await fromOutside()).toBe('conectada');
  }, 60_000);

  it('puts the policy in force within a second of «Guardar»', async () => {
    agentOutput = startAgent().output;
    await expect
      .poll(async () => (await callAs(server.app, admin, '/api/labMachines')).body.data.machines.length, {
        timeout: 15_000,
      })
      .toBe(1);
    const since = performance.now();
    await setSites(['permitido.prueba']);
    const ms = await untilInForce(since);
    console.log(`network policy in force ${ms.toFixed(0)} ms after «Guardar» (first policy)`);
    // The allowed site loads by name, through the agent's DNS and name filter.
    expect((await curl(['https://permitido.prueba/'])).out).toBe('permitido');
    expect((await curl(['http://permitido.prueba/'])).out).toBe('permitido');
  }, 60_000);

  it('refuses another site on the allowed address (another TLS SNI)', async () => {
    const chat = await chatOnAllowedAddress();
    expect(chat.code).not.toBe(0);
    expect(chat.out).not.toContain('chat');
    // A plain HTTP request naming another Host on the allowed address: refused too.
    const plain = await curl(['-H', 'Host: chat.prueba', `http://${net.allowedAddress}/`]);
    expect(plain.code).not.toBe(0);
    expect((await curl(['https://permitido.prueba/'])).out).toBe('permitido');
  }, 30_000);

  it('refuses UDP to the DHCP server port at any address (a relay)', async () => {
    expect(await udpToRelay()).not.toBe('eco');
  }, 30_000);

  it('cuts a connection opened before the policy', async () => {
    tunnel.child.stdin!.write('dos\n');
    await expect.poll(() => tunnel.output, { timeout: 5_000 }).toContain('cerrada');
    expect(tunnel.output).not.toContain('eco dos');
  }, 30_000);

  it('answers no TXT and no other name, and the outside resolver never hears them', async () => {
    const before = net.dnsQueries().length;
    expect(await dns('TXT', 'datos.tunel.prueba')).not.toMatch(/tunel!/);
    expect(await dns('TXT', 'permitido.prueba')).not.toMatch(/tunel!/);
    expect(await dns('A', 'chat.prueba')).toMatch(/^error /);
    expect(await dns('A', 'datos.tunel.prueba')).toMatch(/^error /);
    // The allowed name is answered (from the agent's upstream).
    expect(await dns('A', 'permitido.prueba')).toBe(`ok ["${net.allowedAddress}"]`);
    const heard = net.dnsQueries().slice(before);
    expect(heard.filter((q) => q.type === 16 || q.name !== 'permitido.prueba')).toEqual([]);
  }, 30_000);

  it('refuses a connection from outside to a listener on the machine', async () => {
    expect(await fromOutside()).not.toBe('conectada');
  }, 30_000);

  it("changes nothing when the lab's DNS server is changed to another", async () => {
    await net.setLabResolver(net.rogueDnsAddress);
    const before = net.dnsQueries().length;
    // The contestant's questions still go to the agent: the rogue's answers never arrive.
    expect(await dns('A', 'chat.prueba')).toMatch(/^error /);
    expect(await dns('A', 'permitido.prueba')).toBe(`ok ["${net.allowedAddress}"]`);
    expect((await curl(['https://permitido.prueba/'])).out).toBe('permitido');
    expect(
      net
        .dnsQueries()
        .slice(before)
        .filter((q) => q.resolver === 'rogue'),
    ).toEqual([]);
    // Not even root reaches the new server on port 53: only the resolvers frozen at the policy's start.
    const root = await net.runIn(net.lab, process.execPath, ['-e', DNS_QUERY, 'A', 'chat.prueba']);
    expect(root.trim()).toMatch(/^error /);
    expect(net.dnsQueries().filter((q) => q.resolver === 'rogue')).toEqual([]);
    expect(await net.labRuleset()).not.toContain(net.rogueDnsAddress);

    // Restarted with the rogue in its resolv.conf: the agent still asks the resolvers saved with the
    // policy (the rogue would have named the forbidden address, whose server says «prohibido»).
    const running = children.find((child) => child.spawnargs.includes(BIN) && child.exitCode === null)!;
    running.kill('SIGTERM');
    await new Promise((resolve) => running.once('exit', resolve));
    agentOutput = startAgent().output;
    await expect
      .poll(() => agentOutput.join('\n'), { timeout: 15_000 })
      .toContain('Red: política v1 restablecida al iniciar');
    expect((await curl(['http://permitido.prueba/'])).out).toBe('permitido');
    expect((await curl(['https://permitido.prueba/'])).out).toBe('permitido');
    expect(net.dnsQueries().filter((q) => q.resolver === 'rogue')).toEqual([]);
  }, 60_000);

  it('puts a change of the list in force within a second of «Guardar»', async () => {
    for (const sites of [['permitido.prueba', net.forbiddenAddress], ['permitido.prueba']]) {
      const since = performance.now();
      await setSites(sites);
      for (;;) {
        if ((await net.labRuleset()).includes(net.forbiddenAddress) === sites.length > 1) break;
        if (performance.now() - since > 15_000)
          throw new Error(
            `the list ${sites.join(', ')} was not put in force:\n${agentOutput.join('\n')}\n${await net.runIn(net.lab, 'ss', ['-tnpa'])}`,
          );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      console.log(
        `network policy in force ${(performance.now() - since).toFixed(0)} ms after «Guardar» (${sites.join(', ')})`,
      );
    }
    // The address allowed and taken back: the contestant's UDP relay was reachable only meanwhile.
    expect(await udpToRelay()).not.toBe('eco');
  }, 60_000);
});
