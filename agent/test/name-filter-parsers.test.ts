import { describe, expect, it } from 'vitest';
import { parseHttpHost } from '../src/network/http-host.js';
import { TLS_EXTENSION_ECH, parseClientHello } from '../src/network/tls-client-hello.js';
import { captureClientHello, splitIntoRecords, withExtension } from './helpers/tls-fixtures.js';

describe('the ClientHello reader (name filter)', () => {
  it("reads the server name of node's real ClientHello, lowercase and without the trailing dot", async () => {
    const hello = await captureClientHello('Permitido.Example.');
    expect(parseClientHello(hello)).toEqual({ kind: 'hello', serverName: 'permitido.example', ech: false });
  });

  it('says incomplete for every prefix, and reads it whole only at the last byte', async () => {
    const hello = await captureClientHello('permitido.example');
    for (let n = 0; n < hello.length; n += 1)
      expect(parseClientHello(hello.subarray(0, n)).kind, `${n} bytes`).toBe('incomplete');
    expect(parseClientHello(hello)).toMatchObject({ serverName: 'permitido.example' });
    // Bytes after the ClientHello (none come before the server answers, but they change nothing).
    expect(parseClientHello(Buffer.concat([hello, Buffer.from([0x14, 3, 3, 0, 1, 1])]))).toMatchObject({
      serverName: 'permitido.example',
    });
  });

  it('reads a ClientHello spread over two TLS records', async () => {
    const hello = await captureClientHello('permitido.example');
    const split = splitIntoRecords(hello, 60);
    expect(parseClientHello(split.subarray(0, 70)).kind).toBe('incomplete');
    expect(parseClientHello(split)).toEqual({ kind: 'hello', serverName: 'permitido.example', ech: false });
  });

  it('sees the ECH extension (0xfe0d) in a crafted ClientHello', async () => {
    const hello = withExtension(
      await captureClientHello('permitido.example'),
      TLS_EXTENSION_ECH,
      Buffer.alloc(90, 7),
    );
    expect(parseClientHello(hello)).toEqual({ kind: 'hello', serverName: 'permitido.example', ech: true });
  });

  it('says there is no name when the client sends none (an IP address as host)', async () => {
    // Node sends no SNI for an IP address.
    const hello = await captureClientHello(undefined);
    expect(parseClientHello(hello)).toEqual({ kind: 'hello', serverName: null, ech: false });
  });

  it('refuses what is not a ClientHello, a second server_name, and a hello past the limit', async () => {
    expect(parseClientHello(Buffer.from('GET / HTTP/1.1\r\n')).kind).toBe('invalid');
    expect(parseClientHello(Buffer.from([0x16, 3, 1, 0, 4, 2, 0, 0, 0])).kind).toBe('invalid');
    const hello = await captureClientHello('permitido.example');
    const sni = Buffer.from('otro.example');
    const entry = Buffer.alloc(5 + sni.length);
    entry.writeUInt16BE(3 + sni.length, 0);
    entry[2] = 0;
    entry.writeUInt16BE(sni.length, 3);
    sni.copy(entry, 5);
    expect(parseClientHello(withExtension(hello, 0, entry))).toMatchObject({ kind: 'invalid' });
    expect(parseClientHello(hello, 100)).toMatchObject({ kind: 'invalid' });
  });
});

describe('the HTTP Host reader (name filter)', () => {
  const head = (text: string) => Buffer.from(text, 'latin1');

  it('reads the Host of a request head, without port, lowercase', () => {
    expect(
      parseHttpHost(head('GET /x HTTP/1.1\r\nUser-Agent: a\r\nhost: Permitido.Example.:80\r\n\r\n')),
    ).toEqual({
      kind: 'host',
      host: 'permitido.example',
    });
  });

  it('waits for the end of the head, then answers', () => {
    const text = 'GET / HTTP/1.1\r\nHost: permitido.example\r\n\r\n';
    for (let n = 0; n < text.length; n += 1)
      expect(parseHttpHost(head(text.slice(0, n))).kind).toBe('incomplete');
    expect(parseHttpHost(head(text)).kind).toBe('host');
  });

  it('refuses a head without Host, with two, a CONNECT, a target naming another host, and too large', () => {
    expect(parseHttpHost(head('GET / HTTP/1.1\r\n\r\n')).kind).toBe('invalid');
    expect(parseHttpHost(head('GET / HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n')).kind).toBe(
      'invalid',
    );
    expect(parseHttpHost(head('CONNECT b.example:443 HTTP/1.1\r\nHost: b.example\r\n\r\n')).kind).toBe(
      'invalid',
    );
    expect(parseHttpHost(head('GET http://b.example/ HTTP/1.1\r\nHost: a.example\r\n\r\n')).kind).toBe(
      'invalid',
    );
    expect(parseHttpHost(head('GET http://a.example/ HTTP/1.1\r\nHost: a.example\r\n\r\n'))).toEqual({
      kind: 'host',
      host: 'a.example',
    });
    expect(parseHttpHost(head('GET / HTTP/1.1\r\nHost: 10.0.0.1\r\n\r\n')).kind).toBe('host');
    expect(parseHttpHost(head('GET / HTTP/1.1\r\nHost: [::1]\r\n\r\n')).kind).toBe('invalid');
    expect(parseHttpHost(head(`GET / HTTP/1.1\r\nX: ${'a'.repeat(20_000)}`)).kind).toBe('invalid');
    expect(parseHttpHost(head('\x16\x03\x01\x02\x00')).kind).toBe('invalid');
  });
});
