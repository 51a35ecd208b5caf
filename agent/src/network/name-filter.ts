/**
 * The name filter (agent/README.md, «Sitios permitidos», «Sitios web por nombre»): the firewall diverts every outgoing TCP connection of the
 * contestants to ports 443 and 80 to local ports of the agent; here, from the connection's first
 * bytes (the TLS ClientHello's server name, the HTTP request's `Host`), the agent decides whether the
 * site is allowed, by its name rather than by an address a CDN shares with other sites. Allowed: it
 * connects to the agent's own addresses of that name, writes the bytes read and splices both ways
 * untouched (never decrypts, holds no certificate, so the browser's TLS handshake is with the real
 * site). Otherwise the connection is reset. Bounded: at most `headBytes` read before deciding,
 * `headTimeoutMs` to say the name, `maxConnections` open at once, one log line per name a minute.
 *
 * What it cannot see: the name inside TLS (a request with another `Host` than the server name, the
 * "domain fronting" most CDNs refuse), nor a second request with another `Host` on a kept-alive
 * plain HTTP connection; ECH hides the real name, so a ClientHello carrying it is refused.
 */
import net from 'node:net';
import { parseHttpHost } from './http-host.js';
import { NAME_FILTER_TEXTS } from './name-filter-texts.js';
import { normalizeHostName, parseClientHello } from './tls-client-hello.js';

/** Options of a `NameFilter`. */
export interface NameFilterOptions {
  /** The addresses to connect to for an allowed name: the agent's own resolution of it (never the client's). Empty: refused. */
  addressesOf: (host: string) => ReadonlyArray<{ address: string; version: 4 | 6 }>;
  log: (line: string) => void;
  /** Longest wait for the ClientHello or the request head (ms). Default 10_000. */
  headTimeoutMs?: number;
  /** Most connections open at once (diverted ones; each spliced one also holds its upstream). Default 2_000. */
  maxConnections?: number;
  /** The ports connected to upstream for the TLS and the HTTP listener. Default 443 and 80 (tests and bench: their own servers). */
  upstreamPorts?: { tls: number; http: number };
  /** Longest wait for one upstream address to accept (ms) before the next is tried. Default 10_000. */
  connectTimeoutMs?: number;
  /**
   * A ClientHello carrying the ECH extension: `'refuse'` (default), `'outer-name'` (judged by its clear
   * server name like any other), or a function of that clear name answering one of the two.
   * Browsers that have no ECH key for a site (the agent's DNS gives none) still send the extension with
   * random bytes ("GREASE", indistinguishable from a real ECH by design), so `'refuse'` refuses them
   * too; `'outer-name'` lets through a real ECH whose clear name is allowed, which then reaches
   * whatever site the front behind that name serves. Only a front shared by many sites (a CDN) makes
   * that a way out: the agent refuses ECH for names on a shared CDN address and judges the rest by
   * their clear name (diversion.ts).
   */
  ech?: EchRule | ((host: string | null) => EchRule);
}

/** What the name filter does with a ClientHello carrying ECH (`NameFilterOptions.ech`). */
export type EchRule = 'refuse' | 'outer-name';

/** The rule for a ClientHello carrying ECH whose clear server name is `host`. */
function echRule(option: NameFilterOptions['ech'], host: string | null): EchRule {
  if (typeof option === 'function') return option(host);
  return option ?? 'refuse';
}

/** Most bytes of a ClientHello or request head read before deciding. */
const NAME_FILTER_HEAD_BYTES = 16 * 1024;
/** Default `maxConnections`. */
const NAME_FILTER_MAX_CONNECTIONS = 2_000;
/** A name's refusals are logged at most once in this time (ms). */
const LOG_EVERY_MS = 60_000;
/** Most names whose last log time is kept; past it, refusals of new names are only counted. */
const LOG_NAMES_MAX = 1_000;

type Kind = 'tls' | 'http';

/** One log line per key per minute, with how many were left out in between; bounded. */
class ThrottledLog {
  private readonly seen = new Map<string, { at: number; repeated: number }>();
  private dropped = 0;
  private droppedLoggedAt = -Infinity;
  private sweptAt = -Infinity;
  constructor(private readonly log: (line: string) => void) {}

  /** Logs `line(repeated)` unless `key` was logged less than a minute ago. */
  note(key: string, line: (repeated: number) => string): void {
    const now = performance.now();
    const entry = this.seen.get(key);
    if (entry && now - entry.at < LOG_EVERY_MS) {
      entry.repeated += 1;
      return;
    }
    if (!entry && this.seen.size >= LOG_NAMES_MAX && now - this.sweptAt >= 1_000) {
      this.sweptAt = now;
      for (const [k, e] of this.seen) if (now - e.at >= LOG_EVERY_MS) this.seen.delete(k);
    }
    if (!entry && this.seen.size >= LOG_NAMES_MAX) {
      this.dropped += 1;
      if (now - this.droppedLoggedAt >= LOG_EVERY_MS) {
        this.droppedLoggedAt = now;
        this.log(NAME_FILTER_TEXTS.manyNames(this.dropped));
        this.dropped = 0;
      }
      return;
    }
    this.log(line(entry?.repeated ?? 0));
    this.seen.set(key, { at: now, repeated: 0 });
  }
}

/**
 * The bytes a connection sent before its name is known, and whether to parse them again: a TLS head
 * once the bytes the parser said it needs have come, an HTTP head once its empty line has come (or
 * the limit; while short, every time, to turn away early what is not HTTP). So a client writing one
 * byte at a time costs a constant amount of work per byte, not a parse of everything so far.
 */
class HeadBuffer {
  private chunks: Buffer[] = [];
  private total = 0;
  /** The last bytes seen (HTTP): the empty line may straddle two chunks. */
  private tail = Buffer.alloc(0);
  /** TLS: the parser's last `needed`. */
  needed = 0;
  constructor(private readonly kind: Kind) {}

  /** Adds `chunk`; true when the head should be parsed now. */
  add(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    this.total += chunk.length;
    if (this.kind === 'tls') return this.total >= this.needed || this.total >= NAME_FILTER_HEAD_BYTES;
    const window = Buffer.concat([this.tail, chunk.subarray(0, NAME_FILTER_HEAD_BYTES)]);
    this.tail = window.subarray(Math.max(0, window.length - 3));
    return (
      this.total < 64 ||
      this.total >= NAME_FILTER_HEAD_BYTES ||
      window.includes('\n\n') ||
      window.includes('\n\r\n')
    );
  }

  /** Every byte so far, in one buffer. */
  bytes(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!;
  }
}

/**
 * Listens for the diverted connections and splices the allowed ones. Never throws once started:
 * every failure of a connection closes it (and its upstream).
 */
export class NameFilter {
  private readonly servers: net.Server[] = [];
  /** Every socket open (diverted ones and their upstreams), closed by `stop`. */
  private readonly open = new Set<net.Socket>();
  /** The diverted connections open, bounded by `maxConnections`. */
  private clients = 0;
  private allowed = new Map<string, number | null>();
  private spliced = 0;
  private refused = 0;
  private readonly notes: ThrottledLog;
  private readonly headTimeoutMs: number;
  private readonly maxConnections: number;
  private readonly upstreamPorts: { tls: number; http: number };
  private readonly connectTimeoutMs: number;

  constructor(private readonly options: NameFilterOptions) {
    this.notes = new ThrottledLog(options.log);
    this.headTimeoutMs = options.headTimeoutMs ?? 10_000;
    this.maxConnections = options.maxConnections ?? NAME_FILTER_MAX_CONNECTIONS;
    this.upstreamPorts = options.upstreamPorts ?? { tls: 443, http: 80 };
    this.connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  }

  /**
   * Listens for diverted connections on 127.0.0.1 and ::1 (the same port number on both; ephemeral
   * ports chosen here; ::1 is left out on a machine without IPv6), one port for TLS (from 443) and
   * one for plain HTTP (from 80).
   * @throws Error when no pair of ports could be had.
   */
  async start(): Promise<{ tlsPort: number; httpPort: number }> {
    const tlsPort = await this.listenPair('tls');
    const httpPort = await this.listenPair('http');
    this.options.log(NAME_FILTER_TEXTS.listening(tlsPort, httpPort));
    return { tlsPort, httpPort };
  }

  /** The allowed names now (lowercase, no trailing dot) and on which original port each is allowed: 443, 80, or null for both. Replaces the previous list. */
  allow(names: ReadonlyArray<{ host: string; port: number | null }>): void {
    const next = new Map<string, number | null>();
    for (const { host, port } of names) {
      const name = normalizeHostName(host);
      if (name === null) continue;
      // The same name twice with different ports (443 and 80) is allowed on both.
      const before = next.get(name);
      next.set(name, before === undefined ? port : before === port ? port : null);
    }
    this.allowed = next;
  }

  /** Counters since start: connections spliced, and refused (closed without splicing, for any reason). */
  stats(): { spliced: number; refused: number } {
    return { spliced: this.spliced, refused: this.refused };
  }

  /** Closes the listeners and every open connection. */
  async stop(): Promise<void> {
    const closing = this.servers.map(
      (server) => new Promise<void>((resolve) => server.close(() => resolve())),
    );
    this.servers.length = 0;
    for (const socket of this.open) socket.destroy();
    this.open.clear();
    await Promise.all(closing);
  }

  /** Listens on 127.0.0.1 (ephemeral) then ::1 on the same port; another port when ::1 has it taken. */
  private async listenPair(kind: Kind): Promise<number> {
    for (let attempt = 0; ; attempt += 1) {
      const v4 = this.server(kind);
      const port = await listen(v4, 0, '127.0.0.1');
      const v6 = this.server(kind);
      try {
        await listen(v6, port, '::1');
        this.servers.push(v4, v6);
        return port;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EADDRNOTAVAIL' || code === 'EAFNOSUPPORT') {
          this.servers.push(v4);
          return port;
        }
        v4.close();
        if (attempt >= 20) throw error;
      }
    }
  }

  private server(kind: Kind): net.Server {
    const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (socket) =>
      this.accept(kind, socket),
    );
    server.on('error', () => undefined);
    return server;
  }

  private accept(kind: Kind, socket: net.Socket): void {
    socket.on('error', () => socket.destroy());
    if (this.clients >= this.maxConnections) {
      this.refused += 1;
      this.notes.note('busy', (n) => NAME_FILTER_TEXTS.refusedBusy(this.maxConnections, n));
      socket.resetAndDestroy();
      return;
    }
    this.track(socket);
    this.clients += 1;
    socket.once('close', () => (this.clients -= 1));
    const port = kind === 'tls' ? 443 : 80;
    const head = new HeadBuffer(kind);
    const timer = setTimeout(() => {
      this.refuse(socket, `timeout:${port}`, (n) =>
        NAME_FILTER_TEXTS.refusedTimeout(port, Math.round(this.headTimeoutMs / 1000), n),
      );
    }, this.headTimeoutMs);
    const onData = (chunk: Buffer) => {
      if (!head.add(chunk)) return;
      const decision = this.decide(kind, head);
      if (decision === null) return;
      const bytes = head.bytes();
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.pause();
      if ('refuse' in decision) this.refuse(socket, decision.refuse.key, decision.refuse.line);
      else void this.splice(socket, kind, decision.host, bytes);
    };
    // The client stopped sending before saying the name.
    const onEnd = () => {
      clearTimeout(timer);
      this.refuse(socket, `noname:${port}`, (n) => NAME_FILTER_TEXTS.refusedNoName(port, 'cerrada antes', n));
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('close', () => clearTimeout(timer));
  }

  /** null: read more; else the host to splice to, or why the connection is refused. */
  private decide(
    kind: Kind,
    buffer: HeadBuffer,
  ): { host: string } | { refuse: { key: string; line: (repeated: number) => string } } | null {
    const port = kind === 'tls' ? 443 : 80;
    const noName = (reason: string) => ({
      refuse: {
        key: `noname:${port}`,
        line: (n: number) => NAME_FILTER_TEXTS.refusedNoName(port, reason, n),
      },
    });
    const head = buffer.bytes();
    let host: string;
    if (kind === 'tls') {
      const hello = parseClientHello(head, NAME_FILTER_HEAD_BYTES);
      if (hello.kind === 'incomplete') {
        buffer.needed = hello.needed;
        // Whatever the parser says, nothing past the limit is kept.
        return head.length >= NAME_FILTER_HEAD_BYTES ? noName('saludo TLS demasiado largo') : null;
      }
      if (hello.kind === 'invalid') return noName('no es un saludo TLS válido');
      if (hello.ech && echRule(this.options.ech, hello.serverName) === 'refuse')
        return { refuse: { key: 'ech', line: (n) => NAME_FILTER_TEXTS.refusedEch(hello.serverName, n) } };
      if (hello.serverName === null) return noName('sin nombre del servidor (SNI)');
      host = hello.serverName;
    } else {
      const request = parseHttpHost(head, NAME_FILTER_HEAD_BYTES);
      if (request.kind === 'incomplete')
        return head.length >= NAME_FILTER_HEAD_BYTES ? noName('encabezado demasiado largo') : null;
      if (request.kind === 'invalid') return noName('sin un encabezado Host válido');
      host = request.host;
    }
    const allowedPort = this.allowed.get(host);
    if (allowedPort === undefined || (allowedPort !== null && allowedPort !== port))
      return {
        refuse: { key: `name:${port}:${host}`, line: (n) => NAME_FILTER_TEXTS.refusedName(host, port, n) },
      };
    return { host };
  }

  private refuse(socket: net.Socket, key: string, line: (repeated: number) => string): void {
    if (socket.destroyed) return;
    this.refused += 1;
    this.notes.note(key, line);
    socket.resetAndDestroy();
  }

  private track(socket: net.Socket): void {
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
  }

  /** Connects to `host`'s addresses in turn, writes `head`, then pipes both ways until either ends. */
  private async splice(client: net.Socket, kind: Kind, host: string, head: Buffer): Promise<void> {
    const port = kind === 'tls' ? 443 : 80;
    const upstreamPort = kind === 'tls' ? this.upstreamPorts.tls : this.upstreamPorts.http;
    let addresses: ReadonlyArray<{ address: string; version: 4 | 6 }>;
    try {
      addresses = this.options.addressesOf(host);
    } catch {
      // Never an unhandled rejection in the agent: a failing lookup is a name without addresses.
      addresses = [];
    }
    let reason = 'el agente no tiene direcciones de ese nombre';
    for (const { address } of addresses) {
      if (client.destroyed) return;
      const upstream = await this.connect(address, upstreamPort).catch((error: NodeJS.ErrnoException) => {
        reason = error.code ?? error.message;
        return null;
      });
      if (upstream === null) continue;
      if (client.destroyed || this.servers.length === 0) {
        upstream.destroy();
        return;
      }
      this.spliced += 1;
      this.track(upstream);
      // An error or reset on either side ends both; a clean close of one does not cut the other short:
      // its last bytes are still being flushed, and pipe() has already ended it.
      const closeBoth = () => {
        client.destroy();
        upstream.destroy();
      };
      const onClose = (hadError: boolean) => {
        if (hadError) closeBoth();
      };
      client.on('error', closeBoth).on('close', onClose);
      upstream.on('error', closeBoth).on('close', onClose);
      upstream.write(head);
      // pipe() ends the other side when one side ends (half-close) and pauses on backpressure.
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      return;
    }
    this.refuse(client, `upstream:${port}:${host}`, (n) =>
      NAME_FILTER_TEXTS.upstreamFailed(host, port, reason, n),
    );
  }

  /** A socket connected to `address`:`port`, or the error (a timeout is ETIMEDOUT). */
  private connect(address: string, port: number): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: address, port, allowHalfOpen: true, noDelay: true });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }));
      }, this.connectTimeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        socket.on('error', () => socket.destroy());
        resolve(socket);
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(error);
      });
    });
  }
}

function listen(server: net.Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen({ port, host, exclusive: true }, () => {
      server.off('error', onError);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}
