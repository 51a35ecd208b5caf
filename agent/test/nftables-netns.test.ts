import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECHO_PORT, createLabNetwork, type LabNetwork } from '@concurso/testkit';
import { nftApplyScript } from '../src/network/nftables.js';
import type { ResolvedPolicy } from '../src/network/resolved-policy.js';
import { ssCutFilter } from '../src/network/socket-cut.js';

/**
 * The agent's nftables script and its `ss -K` filter as this machine's nft and ss take them, in a lab
 * namespace the test creates (testkit's `createLabNetwork`): what is guaranteed for a connection opened
 * before the policy (refused at its next packet, by the rules alone) and what `ss -K` adds (ended at
 * once, the allowed ones kept).
 */
describe("the agent's rules on a connection opened before the policy (Linux, lab namespace)", () => {
  let net: LabNetwork;
  const children: ChildProcess[] = [];
  const policy = (extra: ResolvedPolicy['allowed'] = []): ResolvedPolicy => ({
    server: { addresses: [{ address: net.serverAddress, version: 4 }], port: 3000 },
    resolvers: [{ address: net.dnsAddress, version: 4 }],
    allowed: [
      { address: net.allowedAddress, version: 4, port: null, host: 'permitido.prueba' },
      { address: '2001:db8:5::', version: 6, prefix: 48, port: null },
      { address: '2001:db8::8', version: 6, port: 8443, host: 'otro.prueba' },
      ...extra,
    ],
  });
  const divert = { dnsPort: 40053, tlsPort: 40443, httpPort: 40080 };
  /** A contestant's tunnel to the forbidden address's echo, open and answering. */
  const openTunnel = async () => {
    const child = net.spawnTunnel();
    children.push(child);
    const output: string[] = [];
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => output.push(...chunk.trim().split('\n')));
    await expect.poll(() => output, { timeout: 5_000 }).toContain('eco uno');
    return { child, output };
  };
  const ss = (filter: string) => net.runIn(net.lab, 'ss', ['-K', '-t', '-n', 'state', 'connected', filter]);

  beforeAll(async () => {
    net = await createLabNetwork();
  }, 60_000);

  afterAll(async () => {
    children.forEach((child) => child.kill('SIGKILL'));
    await net?.close();
  }, 60_000);

  it('by the rules alone: refused with a reset at its next packet', async () => {
    const tunnel = await openTunnel();
    await net.runIn(net.lab, 'nft', ['-c', '-f', '-'], nftApplyScript(policy(), divert));
    await net.runIn(net.lab, 'nft', ['-f', '-'], nftApplyScript(policy(), divert));
    // Nothing ended it yet: it is its next packet that the rules refuse.
    tunnel.child.stdin!.write('dos\n');
    await expect.poll(() => tunnel.output, { timeout: 5_000 }).toContain('cerrada');
    expect(tunnel.output).toContain('error ECONNRESET');
    expect(tunnel.output).not.toContain('eco dos');
    await net.runIn(net.lab, 'nft', ['delete', 'table', 'inet', 'concurso']);
  }, 30_000);

  it('with ss -K: ended at once, while one to an allowed destination is kept', async () => {
    const tunnel = await openTunnel();
    // Allowed (the admin wrote its address and port): ss keeps it, and it still answers.
    const allowing = policy([{ address: net.forbiddenAddress, version: 4, port: ECHO_PORT }]);
    await net.runIn(net.lab, 'nft', ['-f', '-'], nftApplyScript(allowing, divert));
    await ss(ssCutFilter(allowing, divert, [{ address: net.labAddress, version: 4 }]));
    tunnel.child.stdin!.write('dos\n');
    await expect.poll(() => tunnel.output, { timeout: 5_000 }).toContain('eco dos');
    // No longer allowed: ended by ss before it sends anything.
    const strict = policy();
    const started = performance.now();
    await net.runIn(net.lab, 'nft', ['-f', '-'], nftApplyScript(strict, divert));
    await ss(ssCutFilter(strict, divert, [{ address: net.labAddress, version: 4 }]));
    console.log(`nft -f and ss -K in the lab: ${(performance.now() - started).toFixed(0)} ms`);
    await expect.poll(() => tunnel.output, { timeout: 5_000 }).toContain('cerrada');
    expect(tunnel.output).toContain('error ECONNABORTED');
  }, 30_000);
});
