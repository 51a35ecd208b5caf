/**
 * The agent's DNS forwarder, for a contest's network policy on Linux (agent/README.md, «Sitios
 * permitidos»): the firewall sends every DNS packet of the contestants (UDP and TCP port 53, any
 * address) here, and only the agent reaches the contest's resolvers. It answers only the allowed names:
 * A and AAAA from upstream (only those records and CNAMEs), any other type empty (HTTPS and SVCB too:
 * that strips a site's ECH keys, so the browser's TLS name stays readable), any other name NXDOMAIN
 * without asking upstream. So no name outside the list resolves, and nothing rides DNS out (TXT, NULL:
 * tunnels). Bounded: queries waiting on upstream, TCP connections, and query size.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import {
  DNS_MAX_QUERY_BYTES,
  RCODE,
  asksAddresses,
  readQuery,
  reply,
  tcpAnnounced,
  tcpFrame,
  tcpMessages,
} from './dns-message.js';
import { askUpstream, type UpstreamResolver } from './dns-upstream.js';

/** The most queries waiting on upstream at once; past it a query gets SERVFAIL at once (`dropped`). */
export const DNS_MAX_IN_FLIGHT = 256;

/** The most TCP connections open at once; past it a new one is closed at once. */
const DNS_MAX_TCP_CONNECTIONS = 64;

/** A TCP connection is closed after this long without traffic (ms). */
const DNS_TCP_IDLE_MS = 10_000;

/** A TCP connection is closed this long after it opened, whatever it does (ms). */
const DNS_TCP_LIFETIME_MS = 30_000;

/** Replies a TCP client has not read yet (bytes) past which its queries are not read until it does. */
const TCP_UNREAD_BYTES = 64 * 1024;

/** The shortest time between two log lines saying the in-flight bound was reached (ms). */
const BOUND_LOG_MS = 60_000;

/** Options of a `DnsForwarder`. */
export interface DnsForwarderOptions {
  /** The upstream resolvers the contest's answers come from (frozen when the policy is first applied). */
  upstream: ReadonlyArray<{ address: string; version: 4 | 6 }>;
  /** Port of the upstream resolvers (default 53; tests use another). */
  upstreamPort?: number;
  log: (line: string) => void;
}

/**
 * Listens on UDP and TCP, on 127.0.0.1 and ::1 (same port), and answers as the module says. Each query
 * is counted once in `stats()`: `answered` (an upstream's answer, NXDOMAIN included), `refused` (a name
 * not allowed, or a type other than A and AAAA), or `dropped` (SERVFAIL at once, over the in-flight
 * bound). Not counted: malformed packets (dropped silently) and queries no upstream answered in time
 * (SERVFAIL, logged when it starts and when upstream answers again).
 */
export class DnsForwarder {
  private upstream: UpstreamResolver[];
  private readonly upstreamPort: number;
  private readonly log: (line: string) => void;
  private names = new Set<string>();
  private readonly counts = { answered: 0, refused: 0, dropped: 0 };
  private inFlight = 0;
  /** The resolver that answered last (asked first). */
  private preferred = 0;
  private upstreamDown = false;
  private boundLoggedAt = -Infinity;
  private udp: dgram.Socket[] = [];
  private tcp: net.Server[] = [];
  private readonly connections = new Set<net.Socket>();
  private stopped = false;

  constructor(options: DnsForwarderOptions) {
    this.upstream = [...options.upstream];
    this.upstreamPort = options.upstreamPort ?? 53;
    this.log = options.log;
  }

  /**
   * Listens on UDP and TCP, on 127.0.0.1 and ::1, the same port number everywhere (a free one, chosen
   * here). Without IPv6 on the machine, on 127.0.0.1 only (logged).
   * @throws Error when it cannot listen (after a few tries with other ports).
   */
  async start(): Promise<{ port: number }> {
    let lastError: unknown;
    for (let tries = 0; tries < 20; tries++) {
      const opened: Array<dgram.Socket | net.Server> = [];
      try {
        const udp4 = await this.bindUdp('udp4', '127.0.0.1', 0);
        opened.push(udp4);
        const port = udp4.address().port;
        opened.push(await this.listenTcp('127.0.0.1', port));
        let v6 = true;
        try {
          opened.push(await this.bindUdp('udp6', '::1', port));
        } catch (error) {
          if (!noIpv6(error)) throw error;
          v6 = false;
          this.log(`DNS: la máquina no tiene IPv6; el reenviador DNS escucha solo en 127.0.0.1:${port}.`);
        }
        if (v6) opened.push(await this.listenTcp('::1', port));
        this.udp = opened.filter((s): s is dgram.Socket => s instanceof dgram.Socket);
        this.tcp = opened.filter((s): s is net.Server => s instanceof net.Server);
        return { port };
      } catch (error) {
        await Promise.all(opened.map(closeQuietly));
        lastError = error;
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') break;
      }
    }
    throw new Error(
      `el reenviador DNS no pudo escuchar: ${(lastError as Error)?.message ?? String(lastError)}`,
    );
  }

  /** The names it answers (lowercase, no trailing dot): the allowed host names and the server's host. Replaces the previous list. */
  allow(names: readonly string[]): void {
    this.names = new Set(names.map((name) => name.toLowerCase().replace(/\.$/, '')));
  }

  /** Replaces the upstream resolvers. */
  setUpstream(upstream: ReadonlyArray<{ address: string; version: 4 | 6 }>): void {
    this.upstream = [...upstream];
    this.preferred = 0;
  }

  /** Counters since start: queries answered from upstream, refused (NXDOMAIN/empty), dropped (over the bound). */
  stats(): { answered: number; refused: number; dropped: number } {
    return { ...this.counts };
  }

  /** Stops listening and closes the TCP connections; queries still waiting upstream get no reply. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const socket of this.connections) socket.destroy();
    this.connections.clear();
    await Promise.all([...this.udp, ...this.tcp].map(closeQuietly));
    this.udp = [];
    this.tcp = [];
  }

  /** `answer`, whose unexpected failure (a record that will not encode) leaves the query unanswered. */
  private dispatch(message: Buffer, transport: 'udp' | 'tcp', send: (reply: Buffer) => void): void {
    this.answer(message, transport, send).catch(() => undefined);
  }

  /** Answers one query (`message`, as received) through `send`; a malformed one gets nothing. */
  private async answer(
    message: Buffer,
    transport: 'udp' | 'tcp',
    send: (reply: Buffer) => void,
  ): Promise<void> {
    const query = readQuery(message);
    if (query === null) return;
    if (!this.names.has(query.name)) {
      this.counts.refused++;
      send(reply(query, RCODE.NXDOMAIN, [], transport));
      return;
    }
    if (!asksAddresses(query.question)) {
      this.counts.refused++;
      send(reply(query, RCODE.NOERROR, [], transport));
      return;
    }
    if (this.inFlight >= DNS_MAX_IN_FLIGHT) {
      this.counts.dropped++;
      this.boundReached();
      send(reply(query, RCODE.SERVFAIL, [], transport));
      return;
    }
    this.inFlight++;
    let answer;
    try {
      answer = await askUpstream(this.upstream, this.upstreamPort, query.question, this.preferred);
    } finally {
      this.inFlight--;
    }
    if (this.stopped) return;
    if (answer === null) {
      if (!this.upstreamDown)
        this.log(
          `DNS: ningún servidor DNS del concurso respondió (${this.upstream.map((r) => r.address).join(', ') || 'ninguno'}); los sitios permitidos no resuelven hasta que respondan.`,
        );
      this.upstreamDown = true;
      send(reply(query, RCODE.SERVFAIL, [], transport));
      return;
    }
    if (this.upstreamDown) this.log('DNS: los servidores DNS del concurso responden de nuevo.');
    this.upstreamDown = false;
    this.preferred = answer.resolver;
    this.counts.answered++;
    send(reply(query, answer.rcode, answer.answers, transport));
  }

  /** Logs, at most once a minute, that queries are being refused over the in-flight bound. */
  private boundReached(): void {
    const now = Date.now();
    if (now - this.boundLoggedAt < BOUND_LOG_MS) return;
    this.boundLoggedAt = now;
    this.log(
      `DNS: más de ${DNS_MAX_IN_FLIGHT} consultas esperan a la vez a los servidores DNS del concurso; las demás se responden con fallo (SERVFAIL).`,
    );
  }

  /** A UDP socket bound to `address`:`port`, answering each datagram. */
  private bindUdp(type: 'udp4' | 'udp6', address: string, port: number): Promise<dgram.Socket> {
    const socket = dgram.createSocket({ type, ipv6Only: type === 'udp6' });
    socket.on('message', (message, from) => {
      if (message.length > DNS_MAX_QUERY_BYTES) return;
      this.dispatch(message, 'udp', (out) => {
        if (!this.stopped) socket.send(out, from.port, from.address, () => undefined);
      });
    });
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.bind({ address, port, exclusive: true }, () => {
        socket.off('error', reject);
        // A failed send (the client gone) is not this socket's failure.
        socket.on('error', () => undefined);
        resolve(socket);
      });
    });
  }

  /** A TCP server on `address`:`port`, each connection served by `serve`. */
  private listenTcp(address: string, port: number): Promise<net.Server> {
    const server = net.createServer((socket) => this.serve(socket));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: address, port, ipv6Only: address === '::1', exclusive: true }, () => {
        server.off('error', reject);
        server.on('error', () => undefined);
        resolve(server);
      });
    });
  }

  /**
   * One TCP client: queries one after another on the connection (RFC 7766), answered as they come
   * (maybe out of order). Closed when over `DNS_MAX_TCP_CONNECTIONS`, after `DNS_TCP_IDLE_MS` idle, after
   * `DNS_TCP_LIFETIME_MS`, or at a query longer than `DNS_MAX_QUERY_BYTES`; not read while its unread
   * replies pass `TCP_UNREAD_BYTES`.
   */
  private serve(socket: net.Socket): void {
    socket.on('error', () => undefined);
    if (this.stopped || this.connections.size >= DNS_MAX_TCP_CONNECTIONS) {
      socket.destroy();
      return;
    }
    this.connections.add(socket);
    const lifetime = setTimeout(() => socket.destroy(), DNS_TCP_LIFETIME_MS);
    socket.setTimeout(DNS_TCP_IDLE_MS, () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(lifetime);
      this.connections.delete(socket);
    });
    let pending: Buffer = Buffer.alloc(0);
    let waitingDrain = false;
    const send = (out: Buffer) => {
      if (socket.destroyed || this.stopped) return;
      socket.write(tcpFrame(out));
      if (socket.writableLength > TCP_UNREAD_BYTES && !waitingDrain) {
        waitingDrain = true;
        socket.pause();
        socket.once('drain', () => {
          waitingDrain = false;
          socket.resume();
        });
      }
    };
    socket.on('data', (chunk) => {
      const { messages, rest } = tcpMessages(pending, chunk);
      pending = rest;
      const announced = tcpAnnounced(pending);
      if (announced !== null && (announced === 0 || announced > DNS_MAX_QUERY_BYTES)) {
        socket.destroy();
        return;
      }
      for (const message of messages) {
        if (message.length > DNS_MAX_QUERY_BYTES) {
          socket.destroy();
          return;
        }
        this.dispatch(message, 'tcp', send);
      }
    });
  }
}

/** Whether a bind failed because the machine has no IPv6 (none configured, or the family disabled). */
function noIpv6(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT';
}

/** Closes a socket or server, ignoring that it may be closed already. */
function closeQuietly(handle: dgram.Socket | net.Server): Promise<void> {
  return new Promise((resolve) => {
    try {
      if (handle instanceof dgram.Socket) handle.close(() => resolve());
      else handle.close(() => resolve());
    } catch {
      resolve();
    }
  });
}
