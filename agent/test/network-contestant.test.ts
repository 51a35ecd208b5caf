import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { exited, outputLines, useLabBed } from './helpers/lab-agent.js';

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
  const lab = useLabBed('contestant', 'Los Astutos');
  /** The tunnel opened before the policy, and what it printed. */
  let tunnel: { child: ChildProcess; output: string[] };
  let listener: ChildProcess;

  const curl = (args: string[]) => lab.net.runAsContestant('curl', ['-sk', '--max-time', '3', ...args]);
  const chatOnAllowedAddress = () =>
    curl(['--resolve', `chat.prueba:443:${lab.net.allowedAddress}`, 'https://chat.prueba/']);
  const udpToRelay = async () =>
    (
      await lab.net.runAsContestant(process.execPath, ['-e', UDP_PROBE, lab.net.forbiddenAddress, '67'])
    ).out.trim();
  const dns = async (type: string, name: string) =>
    (await lab.net.runAsContestant(process.execPath, ['-e', DNS_QUERY, type, name])).out.trim();
  const fromOutside = async () =>
    (
      await lab.net.runIn(lab.net.outside, process.execPath, ['-e', CONNECT, lab.net.labAddress, '7071'])
    ).trim();

  it('before the policy every way out works (so each refusal below is the policy’s)', async () => {
    expect((await chatOnAllowedAddress()).out).toBe('chat');
    expect((await curl(['https://permitido.prueba/'])).out).toBe('permitido');
    expect(await udpToRelay()).toBe('eco');
    expect(await dns('TXT', 'datos.tunel.prueba')).toBe('ok [["tunel!"]]');
    expect(await dns('A', 'chat.prueba')).toBe(`ok ["${lab.net.allowedAddress}"]`);
    // The tunnel, opened now and kept.
    const child = lab.net.spawnTunnel();
    lab.children.push(child);
    tunnel = { child, output: outputLines(child) };
    await expect.poll(() => tunnel.output, { timeout: 5_000 }).toContain('eco uno');
    // A listener of the contestant's on the lab machine, reached from outside.
    listener = lab.net.spawnAsContestant(process.execPath, ['-e', LISTENER, lab.net.labAddress, '7071'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    lab.children.push(listener);
    const said = outputLines(listener);
    await expect.poll(() => said, { timeout: 5_000 }).toContain('escuchando');
    expect(await fromOutside()).toBe('conectada');
  }, 60_000);

  it('puts the policy in force within a second of «Guardar»', async () => {
    lab.startAgent();
    await expect.poll(() => lab.machineCount(), { timeout: 15_000 }).toBe(1);
    const since = performance.now();
    await lab.setSites(['permitido.prueba']);
    const ms = await lab.untilRuleset((r) => r.includes('table inet concurso'), 'the policy', { since });
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
    const plain = await curl(['-H', 'Host: chat.prueba', `http://${lab.net.allowedAddress}/`]);
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
    const before = lab.net.dnsQueries().length;
    expect(await dns('TXT', 'datos.tunel.prueba')).not.toMatch(/tunel!/);
    expect(await dns('TXT', 'permitido.prueba')).not.toMatch(/tunel!/);
    expect(await dns('A', 'chat.prueba')).toMatch(/^error /);
    expect(await dns('A', 'datos.tunel.prueba')).toMatch(/^error /);
    // The allowed name is answered (from the agent's upstream).
    expect(await dns('A', 'permitido.prueba')).toBe(`ok ["${lab.net.allowedAddress}"]`);
    const heard = lab.net.dnsQueries().slice(before);
    expect(heard.filter((q) => q.type === 16 || q.name !== 'permitido.prueba')).toEqual([]);
  }, 30_000);

  it('refuses a connection from outside to a listener on the machine', async () => {
    expect(await fromOutside()).not.toBe('conectada');
  }, 30_000);

  it("changes nothing when the lab's DNS server is changed to another", async () => {
    await lab.net.setLabResolver(lab.net.rogueDnsAddress);
    const before = lab.net.dnsQueries().length;
    // The contestant's questions still go to the agent: the rogue's answers never arrive.
    expect(await dns('A', 'chat.prueba')).toMatch(/^error /);
    expect(await dns('A', 'permitido.prueba')).toBe(`ok ["${lab.net.allowedAddress}"]`);
    expect((await curl(['https://permitido.prueba/'])).out).toBe('permitido');
    expect(
      lab.net
        .dnsQueries()
        .slice(before)
        .filter((q) => q.resolver === 'rogue'),
    ).toEqual([]);
    // Not even root reaches the new server on port 53: only the resolvers frozen at the policy's start.
    const root = await lab.net.runIn(lab.net.lab, process.execPath, ['-e', DNS_QUERY, 'A', 'chat.prueba']);
    expect(root.trim()).toMatch(/^error /);
    expect(lab.net.dnsQueries().filter((q) => q.resolver === 'rogue')).toEqual([]);
    expect(await lab.net.labRuleset()).not.toContain(lab.net.rogueDnsAddress);

    // Restarted with the rogue in its resolv.conf: the agent still asks the resolvers saved with the
    // policy (the rogue would have named the forbidden address, whose server says «prohibido»).
    const running = lab.runningAgents()[0]!;
    running.kill('SIGTERM');
    await exited(running);
    const { output } = lab.startAgent();
    await expect
      .poll(() => output.join('\n'), { timeout: 15_000 })
      .toContain('Red: política v1 restablecida al iniciar');
    expect((await curl(['http://permitido.prueba/'])).out).toBe('permitido');
    expect((await curl(['https://permitido.prueba/'])).out).toBe('permitido');
    expect(lab.net.dnsQueries().filter((q) => q.resolver === 'rogue')).toEqual([]);
  }, 60_000);

  it('puts a change of the list in force within a second of «Guardar»', async () => {
    for (const sites of [['permitido.prueba', lab.net.forbiddenAddress], ['permitido.prueba']]) {
      const since = performance.now();
      await lab.setSites(sites);
      const ms = await lab.untilRuleset(
        (r) => r.includes(lab.net.forbiddenAddress) === sites.length > 1,
        `the list ${sites.join(', ')}`,
        { since },
      );
      console.log(`network policy in force ${ms.toFixed(0)} ms after «Guardar» (${sites.join(', ')})`);
    }
    // The address allowed and taken back: the contestant's UDP relay was reachable only meanwhile.
    expect(await udpToRelay()).not.toBe('eco');
  }, 60_000);
});
