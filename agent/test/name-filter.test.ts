import { createHash, X509Certificate } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type tls from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { echRuleOf } from '../src/network/diversion.js';
import { NameFilter, type NameFilterOptions } from '../src/network/name-filter.js';
import { TLS_EXTENSION_ECH } from '../src/network/tls-client-hello.js';
import { captureClientHello, selfSignedCertificate, withExtension } from './helpers/tls-fixtures.js';

const ALLOWED = 'permitido.test';
const OTHER = 'otro.test';

let material: { key: string; cert: string };
let tlsServer: https.Server;
let httpServer: http.Server;
let ports: { tls: number; http: number };
/** Connections each test server accepted (TCP), to prove a refused one never reached them. */
const reached = { tls: 0, http: 0 };
let filter: NameFilter | undefined;
let logs: string[];

const listening = (server: net.Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );

beforeAll(async () => {
  material = await selfSignedCertificate([ALLOWED, OTHER]);
  // One server for both names (a CDN address): it answers with the name the client asked for.
  tlsServer = https.createServer(material, (req, res) => {
    res.end(`hola ${(req.socket as tls.TLSSocket).servername as string}`);
  });
  tlsServer.on('connection', () => (reached.tls += 1));
  httpServer = http.createServer((req, res) => res.end(`hola ${req.headers.host}`));
  httpServer.on('connection', () => (reached.http += 1));
  ports = { tls: await listening(tlsServer), http: await listening(httpServer) };
});

afterAll(async () => {
  tlsServer.closeAllConnections();
  httpServer.closeAllConnections();
  await Promise.all([tlsServer, httpServer].map((s) => new Promise((resolve) => s.close(resolve))));
});

afterEach(async () => {
  await filter?.stop();
  filter = undefined;
});

async function startFilter(options: Partial<NameFilterOptions> = {}) {
  logs = [];
  filter = new NameFilter({
    // The first address has nothing listening on the test server's port: the next one is tried.
    addressesOf: (host) =>
      host === ALLOWED
        ? [
            { address: '::1', version: 6 },
            { address: '127.0.0.1', version: 4 },
          ]
        : [{ address: '127.0.0.1', version: 4 }],
    log: (line) => logs.push(line),
    upstreamPorts: ports,
    ...options,
  });
  const started = await filter.start();
  filter.allow([{ host: ALLOWED, port: null }]);
  return started;
}

/** GET / over TLS through the filter's port with `servername`; the body, the server's certificate. */
function httpsGet(port: number, servername: string, host = '127.0.0.1') {
  return new Promise<{ body: string; fingerprint: string }>((resolve, reject) => {
    const req = https.get(
      { host, port, servername, path: '/', headers: { host: servername }, ca: material.cert, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () =>
          resolve({
            body,
            fingerprint: (res.socket as tls.TLSSocket).getPeerX509Certificate()!.fingerprint256,
          }),
        );
      },
    );
    req.on('error', reject);
  });
}

function httpGet(port: number, hostHeader: string) {
  return new Promise<string>((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: '/', headers: { host: hostHeader }, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () => resolve(body));
      },
    );
    req.on('error', reject);
  });
}

/** Sends `bytes` raw (one write each chunk, `gapMs` apart) and resolves with what came back and how it ended. */
function raw(port: number, chunks: Buffer[], gapMs = 0) {
  return new Promise<{ received: Buffer; ended: 'reset' | 'closed' }>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, noDelay: true });
    let received = Buffer.alloc(0);
    let error: NodeJS.ErrnoException | undefined;
    socket.on('data', (c: Buffer) => {
      received = Buffer.concat([received, c]);
      // The server answered: enough for these tests.
      if (received.length >= 5) socket.destroy();
    });
    socket.on('error', (e) => (error = e));
    socket.on('close', () => resolve({ received, ended: error?.code === 'ECONNRESET' ? 'reset' : 'closed' }));
    socket.once('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) return;
        socket.write(chunk);
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

describe('the name filter', () => {
  it('splices an allowed name: the real TLS handshake with the site, through both loopback addresses', async () => {
    const { tlsPort } = await startFilter();
    const cert = new X509Certificate(material.cert);
    const before = reached.tls;
    for (const host of ['127.0.0.1', '::1']) {
      const answer = await httpsGet(tlsPort, ALLOWED, host);
      expect(answer.body).toBe(`hola ${ALLOWED}`);
      // The certificate the client checked is the site's own: nothing was intercepted.
      expect(answer.fingerprint).toBe(cert.fingerprint256);
    }
    expect(reached.tls - before).toBe(2);
    expect(filter!.stats()).toEqual({ spliced: 2, refused: 0 });
  });

  it('resets another name on the same address, before it reaches the site, and logs it once a minute', async () => {
    const { tlsPort } = await startFilter();
    const before = reached.tls;
    await expect(httpsGet(tlsPort, OTHER)).rejects.toMatchObject({ code: 'ECONNRESET' });
    await expect(httpsGet(tlsPort, OTHER)).rejects.toMatchObject({ code: 'ECONNRESET' });
    await expect(httpsGet(tlsPort, 'tercero.test')).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(reached.tls).toBe(before);
    expect(filter!.stats()).toEqual({ spliced: 0, refused: 3 });
    expect(logs.filter((l) => l.includes('rechazada'))).toEqual([
      `Red: conexión HTTPS a ${OTHER} rechazada (no es un sitio permitido).`,
      'Red: conexión HTTPS a tercero.test rechazada (no es un sitio permitido).',
    ]);
  });

  it('allows a name only on its port, and follows the latest list', async () => {
    const { tlsPort, httpPort } = await startFilter();
    filter!.allow([{ host: `${ALLOWED.toUpperCase()}.`, port: 80 }]);
    expect(await httpGet(httpPort, ALLOWED)).toBe(`hola ${ALLOWED}`);
    await expect(httpsGet(tlsPort, ALLOWED)).rejects.toMatchObject({ code: 'ECONNRESET' });
    filter!.allow([]);
    await expect(httpGet(httpPort, ALLOWED)).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('refuses a ClientHello carrying ECH, even with an allowed name outside', async () => {
    const { tlsPort } = await startFilter();
    const before = reached.tls;
    const hello = withExtension(await captureClientHello(ALLOWED), TLS_EXTENSION_ECH, Buffer.alloc(120, 1));
    expect(await raw(tlsPort, [hello])).toEqual({ received: Buffer.alloc(0), ended: 'reset' });
    expect(reached.tls).toBe(before);
    expect(logs.some((l) => l.includes('Encrypted Client Hello'))).toBe(true);
  });

  it("with ech: 'outer-name', judges a ClientHello carrying ECH by its clear name", async () => {
    const { tlsPort } = await startFilter({ ech: 'outer-name' });
    const hello = await captureClientHello(ALLOWED);
    const allowed = withExtension(hello, TLS_EXTENSION_ECH, Buffer.alloc(120, 1));
    // The site answers the hello (a ServerHello, or an alert): it got it.
    expect((await raw(tlsPort, [allowed])).received.length).toBeGreaterThan(0);
    const other = withExtension(await captureClientHello(OTHER), TLS_EXTENSION_ECH, Buffer.alloc(120, 1));
    expect(await raw(tlsPort, [other])).toEqual({ received: Buffer.alloc(0), ended: 'reset' });
    expect(filter!.stats()).toEqual({ spliced: 1, refused: 1 });
  });

  it("with the diversion's rule, refuses ECH for a name on a shared CDN address and judges it by its clear name elsewhere", async () => {
    // The allowed name stands on a Cloudflare address for the rule (the filter still connects to the
    // test's server): a real ECH behind it could reach any site of that front.
    const onCdn = new Set<string>();
    const { tlsPort } = await startFilter({
      ech: (host) =>
        echRuleOf(host, (name) => [{ address: onCdn.has(name) ? '104.16.132.229' : '10.1.2.3' }]),
    });
    const hello = withExtension(await captureClientHello(ALLOWED), TLS_EXTENSION_ECH, Buffer.alloc(120, 1));
    expect((await raw(tlsPort, [hello])).received.length).toBeGreaterThan(0);
    onCdn.add(ALLOWED);
    expect(await raw(tlsPort, [hello])).toEqual({ received: Buffer.alloc(0), ended: 'reset' });
    expect(filter!.stats()).toEqual({ spliced: 1, refused: 1 });
  });

  it('refuses a ClientHello without a name', async () => {
    const { tlsPort } = await startFilter();
    expect(await raw(tlsPort, [await captureClientHello(undefined)])).toMatchObject({ ended: 'reset' });
    expect(filter!.stats().refused).toBe(1);
  });

  it('reads a ClientHello written one byte at a time, and hands it to the site intact', async () => {
    const { tlsPort } = await startFilter();
    const hello = await captureClientHello(ALLOWED);
    const bytes = [...hello].map((b) => Buffer.from([b]));
    const { received } = await raw(tlsPort, bytes, 1);
    // The site answered with a handshake record (its ServerHello), not an alert: it got the hello whole.
    expect(received[0]).toBe(0x16);
    expect(filter!.stats().spliced).toBe(1);
  });

  it('plain HTTP: reads a head written one byte at a time', async () => {
    const { httpPort } = await startFilter();
    const request = `GET / HTTP/1.1\r\nHost: ${ALLOWED}\r\nConnection: close\r\n\r\n`;
    const { received } = await raw(
      httpPort,
      [...Buffer.from(request)].map((b) => Buffer.from([b])),
      1,
    );
    expect(received.toString('latin1')).toMatch(/^HTTP\/1\.1 200/);
  });

  it('refuses a head that never ends, at 16 KB, without waiting for the timeout', async () => {
    const { tlsPort, httpPort } = await startFilter({ headTimeoutMs: 60_000 });
    const header = Buffer.from(`GET / HTTP/1.1\r\nHost: ${ALLOWED}\r\nX: `);
    expect(
      await raw(httpPort, [header, ...Array.from({ length: 20 }, () => Buffer.alloc(1024, 0x61))], 1),
    ).toMatchObject({
      received: Buffer.alloc(0),
      ended: 'reset',
    });
    // TLS: a handshake record longer than the limit.
    expect(await raw(tlsPort, [Buffer.from([0x16, 3, 1, 0x50, 0]), Buffer.alloc(20_000)])).toMatchObject({
      ended: 'reset',
    });
    expect(filter!.stats()).toEqual({ spliced: 0, refused: 2 });
  });

  it('plain HTTP: splices an allowed Host, refuses another or none', async () => {
    const { httpPort } = await startFilter();
    expect(await httpGet(httpPort, `${ALLOWED}:80`)).toBe(`hola ${ALLOWED}:80`);
    const before = reached.http;
    await expect(httpGet(httpPort, OTHER)).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(await raw(httpPort, [Buffer.from('GET / HTTP/1.0\r\n\r\n')])).toMatchObject({ ended: 'reset' });
    expect(reached.http).toBe(before);
  });

  it('keeps the other direction open after a half-close, until the site has answered', async () => {
    // A site that answers only once the client has finished sending (its FIN).
    const site = net.createServer({ allowHalfOpen: true }, (socket) => {
      const hash = createHash('sha256');
      socket.on('data', (c) => hash.update(c));
      socket.on('end', () =>
        socket.end(`HTTP/1.0 200 OK\r\n\r\n${hash.digest('hex')}${'x'.repeat(8 << 20)}`),
      );
    });
    const sitePort = await listening(site);
    try {
      const { httpPort } = await startFilter({ upstreamPorts: { tls: ports.tls, http: sitePort } });
      const request = `POST / HTTP/1.0\r\nHost: ${ALLOWED}\r\n\r\n${'y'.repeat(100_000)}`;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect({ host: '127.0.0.1', port: httpPort, allowHalfOpen: true });
        let text = '';
        socket.setEncoding('latin1').on('data', (c: string) => (text += c));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
        socket.end(request);
        // A slow reader: the filter holds the site's last bytes while the site has already closed.
        socket.pause();
        setTimeout(() => socket.resume(), 300);
      });
      const body = answer.split('\r\n\r\n')[1]!;
      expect(body.slice(0, 64)).toBe(createHash('sha256').update(request).digest('hex'));
      expect(body.length).toBe(64 + (8 << 20));
    } finally {
      site.close();
    }
  });

  it('closes a client that says nothing once the head timeout passes', async () => {
    const { tlsPort } = await startFilter({ headTimeoutMs: 300 });
    expect(await raw(tlsPort, [])).toMatchObject({ received: Buffer.alloc(0), ended: 'reset' });
    expect(filter!.stats().refused).toBe(1);
    expect(logs.some((l) => l.includes('no dijo a qué sitio va'))).toBe(true);
  });

  it('refuses connections past the bound, and takes new ones once some close', async () => {
    const { httpPort } = await startFilter({ maxConnections: 5 });
    const silent = await Promise.all(
      Array.from(
        { length: 5 },
        () =>
          new Promise<net.Socket>((resolve) => {
            const socket = net.connect({ host: '127.0.0.1', port: httpPort }, () => resolve(socket));
            socket.on('error', () => undefined);
          }),
      ),
    );
    // Until the filter has accepted all five, a sixth may still get in: wait for the refusal.
    let refusal = await raw(httpPort, [Buffer.from(`GET / HTTP/1.1\r\nHost: ${ALLOWED}\r\n\r\n`)]);
    for (let i = 0; i < 50 && refusal.received.length > 0; i += 1)
      refusal = await raw(httpPort, [Buffer.from(`GET / HTTP/1.1\r\nHost: ${ALLOWED}\r\n\r\n`)]);
    expect(refusal).toEqual({ received: Buffer.alloc(0), ended: 'reset' });
    await expect(httpGet(httpPort, ALLOWED)).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(logs.filter((l) => l.includes('ya hay 5 conexiones abiertas'))).toHaveLength(1);
    for (const socket of silent) socket.destroy();
    let answer: string | undefined;
    for (let i = 0; i < 50 && answer === undefined; i += 1)
      answer = await httpGet(httpPort, ALLOWED).catch(() => undefined);
    expect(answer).toBe(`hola ${ALLOWED}`);
  });

  it('stop closes the listeners and the spliced connections', async () => {
    const { httpPort } = await startFilter();
    const socket = net.connect({ host: '127.0.0.1', port: httpPort });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(`GET / HTTP/1.1\r\nHost: ${ALLOWED}\r\n\r\n`);
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    await filter!.stop();
    filter = undefined;
    await closed;
    await expect(httpGet(httpPort, ALLOWED)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
