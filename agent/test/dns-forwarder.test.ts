import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import dgram from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import net from 'node:net';
import dnsPacket, { type Answer, type DecodedPacket, type Packet } from 'dns-packet';
import { DNS_MAX_IN_FLIGHT, DnsForwarder } from '../src/network/dns-forwarder.js';

/** The records the fake upstream knows, by lowercase name and type. */
const ZONE: Record<string, Partial<Record<string, Answer[]>>> = {
  'allowed.test': {
    A: [
      { name: 'allowed.test', type: 'A', ttl: 30, data: '192.0.2.1' },
      { name: 'allowed.test', type: 'A', ttl: 30, data: '192.0.2.2' },
    ],
    AAAA: [{ name: 'allowed.test', type: 'AAAA', ttl: 3600, data: '2001:db8::1' }],
    TXT: [{ name: 'allowed.test', type: 'TXT', ttl: 30, data: 'secreto' }],
    UNKNOWN_65: [
      { name: 'allowed.test', type: 'UNKNOWN_65' as 'NULL', ttl: 30, data: Buffer.from('ech-config') },
    ],
  },
  // A CNAME to an allowed name, and a record of another name slipped into the answer section.
  'www.allowed.test': {
    A: [
      { name: 'www.allowed.test', type: 'CNAME', ttl: 30, data: 'allowed.test' },
      { name: 'allowed.test', type: 'A', ttl: 30, data: '192.0.2.1' },
      { name: 'otro.test', type: 'A', ttl: 30, data: '198.51.100.9' },
    ],
  },
  // Always truncated over UDP: the whole answer only over TCP.
  'grande.allowed.test': { A: [{ name: 'grande.allowed.test', type: 'A', ttl: 30, data: '192.0.2.77' }] },
  // Longer than a UDP reply may be (1232 bytes with EDNS): the client is told to ask over TCP.
  'muchos.allowed.test': {
    A: Array.from({ length: 100 }, (_, i) => ({
      name: 'muchos.allowed.test',
      type: 'A',
      ttl: 30,
      data: `192.0.2.${i}`,
    })),
  },
  'lento.allowed.test': { A: [{ name: 'lento.allowed.test', type: 'A', ttl: 30, data: '192.0.2.99' }] },
  'otro.test': { A: [{ name: 'otro.test', type: 'A', ttl: 30, data: '198.51.100.9' }] },
};

/** How long the fake upstream waits before answering `lento.allowed.test` (ms). */
const SLOW_MS = 300;

/**
 * A resolver built on dns-packet, on UDP and TCP at the same ephemeral port of `address`: answers from
 * `ZONE` (with an authority and an additional record the forwarder must drop), NXDOMAIN otherwise, and
 * counts what it was asked, and how many answers it held back at most at once.
 */
async function fakeUpstream(address = '127.0.0.1') {
  const asked: string[] = [];
  let waiting = 0;
  let mostWaiting = 0;
  const answer = async (message: Buffer, transport: 'udp' | 'tcp'): Promise<Buffer | null> => {
    let query: DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return null;
    }
    const question = query.questions![0]!;
    const name = question.name.toLowerCase();
    asked.push(`${name} ${question.type} ${transport}`);
    if (name === 'lento.allowed.test') {
      waiting++;
      mostWaiting = Math.max(mostWaiting, waiting);
      await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
      waiting--;
    }
    const records = ZONE[name];
    const truncated = name === 'grande.allowed.test' && transport === 'udp';
    const packet: Packet = {
      id: query.id,
      type: 'response',
      flags:
        dnsPacket.RECURSION_DESIRED |
        dnsPacket.RECURSION_AVAILABLE |
        (truncated ? dnsPacket.TRUNCATED_RESPONSE : 0) |
        (records ? 0 : 3),
      questions: [question],
      answers: truncated ? [] : (records?.[question.type] ?? []),
      authorities: [{ name: 'test', type: 'NS', ttl: 30, data: 'ns.fuera.test' }],
      additionals: [{ name: 'ns.fuera.test', type: 'A', ttl: 30, data: '203.0.113.5' }],
    };
    return dnsPacket.encode(packet);
  };
  const udp = dgram.createSocket('udp4');
  udp.on('message', (message, from) => {
    void answer(message, 'udp').then((out) => out && udp.send(out, from.port, from.address));
  });
  await new Promise<void>((resolve) => udp.bind(0, address, resolve));
  const port = udp.address().port;
  const tcp = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      // The tests' queries come whole in one chunk.
      void answer(chunk.subarray(2), 'tcp').then((out) => {
        if (out) socket.write(Buffer.concat([Buffer.from([out.length >> 8, out.length & 0xff]), out]));
      });
    });
  });
  await new Promise<void>((resolve) => tcp.listen(port, address, resolve));
  return {
    port,
    asked,
    mostWaiting: () => mostWaiting,
    close: async () => {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

type Upstream = Awaited<ReturnType<typeof fakeUpstream>>;

/** Asks `name` `type` of the DNS server at `port` (UDP or TCP); the decoded reply. */
async function ask(
  port: number,
  name: string,
  type: string,
  transport: 'udp' | 'tcp' = 'udp',
  host = '127.0.0.1',
): Promise<DecodedPacket & { rcode?: string }> {
  const id = Math.floor(Math.random() * 65_536);
  const query = {
    id,
    type: 'query' as const,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ name, type: type as 'A', class: 'IN' as const }],
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sin respuesta a ${name} ${type}`)), 5_000);
    if (transport === 'udp') {
      const socket = dgram.createSocket(net.isIPv6(host) ? 'udp6' : 'udp4');
      socket.on('message', (message) => {
        clearTimeout(timer);
        socket.close();
        resolve(dnsPacket.decode(message));
      });
      socket.send(dnsPacket.encode(query), port, host);
    } else {
      const socket = net.connect(port, host, () => socket.write(dnsPacket.streamEncode(query)));
      let got = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        got = Buffer.concat([got, chunk]);
        if (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
          clearTimeout(timer);
          socket.destroy();
          resolve(dnsPacket.decode(got.subarray(2)));
        }
      });
      socket.on('error', reject);
    }
  });
}

const datas = (reply: DecodedPacket) =>
  (reply.answers ?? []).map((a) => `${a.type} ${String((a as { data: unknown }).data)}`);

describe('the DNS forwarder', () => {
  let upstream: Upstream;
  let forwarder: DnsForwarder;
  let port: number;
  const logged: string[] = [];

  beforeEach(async () => {
    upstream = await fakeUpstream();
    forwarder = new DnsForwarder({
      upstream: [{ address: '127.0.0.1', version: 4 }],
      upstreamPort: upstream.port,
      log: (line) => logged.push(line),
    });
    ({ port } = await forwarder.start());
    forwarder.allow([
      'allowed.test',
      'www.allowed.test',
      'grande.allowed.test',
      'lento.allowed.test',
      'muchos.allowed.test',
    ]);
  });

  afterEach(async () => {
    await forwarder.stop();
    await upstream.close();
    logged.length = 0;
  });

  it('answers A and AAAA of an allowed name with the upstream addresses only, TTL capped, id and question kept', async () => {
    const a = await ask(port, 'Allowed.TEST', 'A');
    expect(a.rcode).toBe('NOERROR');
    expect(a.questions).toEqual([{ name: 'Allowed.TEST', type: 'A', class: 'IN' }]);
    expect(datas(a).sort()).toEqual(['A 192.0.2.1', 'A 192.0.2.2']);
    expect(a.answers).toMatchObject([{ ttl: 30 }, { ttl: 30 }]);
    expect(a.authorities).toEqual([]);
    expect(a.additionals).toEqual([]);
    const aaaa = await ask(port, 'allowed.test', 'AAAA');
    expect(datas(aaaa)).toEqual(['AAAA 2001:db8::1']);
    expect(aaaa.answers).toMatchObject([{ ttl: 60 }]);
    // The CNAME chain is kept, a record of another name in the same answer is not.
    const www = await ask(port, 'www.allowed.test', 'A');
    expect(datas(www)).toEqual(['CNAME allowed.test', 'A 192.0.2.1']);
  });

  it('answers nothing for TXT, HTTPS, SVCB or ANY of an allowed name, NXDOMAIN for any other name, without asking upstream', async () => {
    for (const type of ['TXT', 'UNKNOWN_65', 'UNKNOWN_64', 'ANY', 'NULL', 'MX']) {
      const reply = await ask(port, 'allowed.test', type);
      expect([type, reply.rcode, reply.answers]).toEqual([type, 'NOERROR', []]);
    }
    for (const type of ['A', 'TXT']) {
      const reply = await ask(port, 'otro.test', type);
      expect([type, reply.rcode, reply.answers]).toEqual([type, 'NXDOMAIN', []]);
    }
    expect(upstream.asked).toEqual([]);
    expect(forwarder.stats()).toEqual({ answered: 0, refused: 8, dropped: 0 });
  });

  it('answers over TCP, and asks upstream over TCP when its UDP answer is truncated', async () => {
    const reply = await ask(port, 'allowed.test', 'A', 'tcp');
    expect(datas(reply).sort()).toEqual(['A 192.0.2.1', 'A 192.0.2.2']);
    const big = await ask(port, 'grande.allowed.test', 'A');
    expect(datas(big)).toEqual(['A 192.0.2.77']);
    expect(upstream.asked).toEqual([
      'allowed.test A udp',
      'grande.allowed.test A udp',
      'grande.allowed.test A tcp',
    ]);
  });

  it('drops malformed packets and answers the next query', async () => {
    const socket = dgram.createSocket('udp4');
    const replies: Buffer[] = [];
    socket.on('message', (m) => replies.push(m));
    // A response, garbage, and the one label «allowed.test» (a dot inside a label) instead of two.
    const response = dnsPacket.encode({
      id: 1,
      type: 'response',
      questions: [{ name: 'allowed.test', type: 'A' }],
    });
    const header = Buffer.from([0, 2, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    const oneLabel = Buffer.concat([
      header,
      Buffer.from([12]),
      Buffer.from('allowed.test'),
      Buffer.from([0, 0, 1, 0, 1]),
    ]);
    for (const bad of [response, Buffer.from('hola'), oneLabel]) socket.send(bad, port, '127.0.0.1');
    const good = await ask(port, 'allowed.test', 'A');
    socket.close();
    expect(good.rcode).toBe('NOERROR');
    expect(replies).toEqual([]);
    expect(upstream.asked).toEqual(['allowed.test A udp']);
  });

  it('asks the next resolver when one does not answer', async () => {
    // Silent: takes the query and never answers, at the same port on another loopback address.
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(upstream.port, '127.0.0.2', resolve));
    let silentGot = 0;
    silent.on('message', () => silentGot++);
    forwarder.setUpstream([
      { address: '127.0.0.2', version: 4 },
      { address: '127.0.0.1', version: 4 },
    ]);
    const reply = await ask(port, 'allowed.test', 'A');
    silent.close();
    expect(silentGot).toBe(1);
    expect(datas(reply).sort()).toEqual(['A 192.0.2.1', 'A 192.0.2.2']);
    // The resolver that answered is asked first from then on.
    expect((await ask(port, 'allowed.test', 'AAAA')).rcode).toBe('NOERROR');
    expect(silentGot).toBe(1);
  });

  it('says SERVFAIL, and logs it once, when no upstream answers', async () => {
    await upstream.close();
    upstream = await fakeUpstream();
    forwarder.setUpstream([]);
    expect((await ask(port, 'allowed.test', 'A')).rcode).toBe('SERVFAIL');
    expect((await ask(port, 'allowed.test', 'A')).rcode).toBe('SERVFAIL');
    expect(logged.filter((line) => line.includes('ningún servidor DNS'))).toHaveLength(1);
  });

  it('serves real clients: node:dns resolves allowed names and fails the others', async () => {
    const resolver = new Resolver({ timeout: 3_000, tries: 1 });
    resolver.setServers([`127.0.0.1:${port}`]);
    expect((await resolver.resolve4('allowed.test')).sort()).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(await resolver.resolve6('allowed.test')).toEqual(['2001:db8::1']);
    expect(await resolver.resolve4('muchos.allowed.test')).toHaveLength(100);
    const udp = await ask(port, 'muchos.allowed.test', 'A');
    expect([udp.flag_tc, udp.answers]).toEqual([true, []]);
    await expect(resolver.resolve4('otro.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolveTxt('allowed.test')).rejects.toMatchObject({ code: 'ENODATA' });
    const v6 = new Resolver({ timeout: 3_000, tries: 1 });
    v6.setServers([`[::1]:${port}`]);
    expect(await v6.resolve6('allowed.test')).toEqual(['2001:db8::1']);
  });

  it('keeps at most the bound of queries waiting upstream under a flood, and counts every query once', async () => {
    // 5,000 queries at once over 20 TCP connections (none lost on the way, so every one is counted):
    // half for a name the upstream answers slowly, a quarter TXT of it, a quarter of another name.
    const perConnection = 250;
    const rcodes: Record<string, number> = {};
    let withAnswers = 0;
    const heapBefore = process.memoryUsage().heapUsed;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 20 }, (_, c) => {
        const queries = Array.from({ length: perConnection }, (_, i) =>
          dnsPacket.streamEncode({
            id: (c * perConnection + i) & 0xffff,
            type: 'query',
            flags: dnsPacket.RECURSION_DESIRED,
            questions: [
              i % 2 === 0
                ? { name: 'lento.allowed.test', type: 'A' }
                : i % 4 === 1
                  ? { name: 'lento.allowed.test', type: 'TXT' }
                  : { name: `n${i}.otro.test`, type: 'A' },
            ],
          }),
        );
        return new Promise<void>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => socket.write(Buffer.concat(queries)));
          let got = Buffer.alloc(0);
          let count = 0;
          socket.on('data', (chunk) => {
            got = Buffer.concat([got, chunk]);
            while (got.length >= 2 && got.length >= 2 + got.readUInt16BE(0)) {
              const reply = dnsPacket.decode(got.subarray(2, 2 + got.readUInt16BE(0))) as DecodedPacket & {
                rcode: string;
              };
              got = got.subarray(2 + got.readUInt16BE(0));
              rcodes[reply.rcode] = (rcodes[reply.rcode] ?? 0) + 1;
              if ((reply.answers ?? []).length > 0) withAnswers++;
              if (++count === perConnection) {
                socket.destroy();
                resolve();
              }
            }
          });
          socket.on('error', reject);
        });
      }),
    );
    const stats = forwarder.stats();
    console.log(
      `Avalancha TCP: 5000 consultas en ${Date.now() - started} ms; contadores ${JSON.stringify(stats)}; respuestas ${JSON.stringify(rcodes)}; ` +
        `a lo más ${upstream.mostWaiting()} esperando arriba; heap +${Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e6)} MB`,
    );
    expect(stats.answered + stats.refused + stats.dropped).toBe(5_000);
    expect(stats.refused).toBe(2_500);
    expect(stats.dropped).toBeGreaterThan(0);
    expect(withAnswers).toBe(stats.answered);
    expect(rcodes.SERVFAIL).toBe(stats.dropped);
    expect(upstream.mostWaiting()).toBeLessThanOrEqual(DNS_MAX_IN_FLIGHT);
    expect(upstream.asked.length).toBe(stats.answered);
    expect(logged.filter((line) => line.includes(`más de ${DNS_MAX_IN_FLIGHT}`))).toHaveLength(1);

    // The same over UDP: 5,000 datagrams from one socket, 250 at a time (what one moment's kernel buffer
    // holds; some may still be lost there): the bound holds, and the forwarder answers as before after.
    const socket = dgram.createSocket('udp4');
    let udpReplies = 0;
    socket.on('message', () => udpReplies++);
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const query = dnsPacket.encode({
      id: 7,
      type: 'query',
      questions: [{ name: 'lento.allowed.test', type: 'A' }],
    });
    for (let i = 0; i < 5_000; i++) {
      socket.send(query, port, '127.0.0.1');
      if (i % 250 === 249) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, 3 * SLOW_MS));
    socket.close();
    const after = forwarder.stats();
    const counted = after.answered + after.refused + after.dropped - 5_000;
    console.log(
      `Avalancha UDP: 5000 enviadas, ${counted} contadas (${after.dropped - stats.dropped} sobre el límite), ${udpReplies} respuestas; a lo más ${upstream.mostWaiting()} esperando arriba`,
    );
    expect(after.dropped).toBeGreaterThan(stats.dropped);
    expect(counted).toBeLessThanOrEqual(5_000);
    expect(udpReplies).toBeLessThanOrEqual(counted);
    expect(upstream.mostWaiting()).toBeLessThanOrEqual(DNS_MAX_IN_FLIGHT);
    expect(datas(await ask(port, 'allowed.test', 'AAAA'))).toEqual(['AAAA 2001:db8::1']);
  });

  it('closes a TCP connection announcing a query longer than the bound', async () => {
    const closed = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(Buffer.from([0x10, 0x00, 1, 2, 3])));
      socket.on('close', () => resolve(true));
      socket.on('error', () => undefined);
      setTimeout(() => resolve(false), 3_000);
    });
    expect(closed).toBe(true);
  });

  it('measures: answer time through the forwarder and straight to upstream (not asserted)', async () => {
    const time = async (target: number, name: string) => {
      const times: number[] = [];
      for (let i = 0; i < 300; i++) {
        const t = process.hrtime.bigint();
        await ask(target, name, 'A');
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      times.sort((x, y) => x - y);
      return `mediana ${times[150]!.toFixed(3)} ms, p99 ${times[296]!.toFixed(3)} ms`;
    };
    const straight = await time(upstream.port, 'allowed.test');
    const through = await time(port, 'allowed.test');
    const refused = await time(port, 'otro.test');
    console.log(
      `Latencia (300 consultas A seguidas, UDP, mismo proceso): directo al upstream ${straight}; por el reenviador ${through}; nombre no permitido (NXDOMAIN local) ${refused}`,
    );
    expect(forwarder.stats().answered).toBe(300);
  });
});
