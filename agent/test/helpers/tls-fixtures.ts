/**
 * TLS material for the name filter's tests: a self-signed certificate for given names (made by the
 * `openssl` command line), real ClientHellos captured from node's `tls.connect`, and the same with an
 * extension added (a crafted ECH) or split over two TLS records.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';

/** A key and a self-signed certificate (PEM) whose subjectAltName lists `names`. */
export async function selfSignedCertificate(
  names: readonly string[],
): Promise<{ key: string; cert: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'name-filter-cert-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${names[0]}`,
      '-addext',
      `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
      '-keyout',
      key,
      '-out',
      cert,
    ]);
    return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The first TLS record node's `tls.connect` sends with `servername` (its whole ClientHello). */
export async function captureClientHello(servername: string | undefined): Promise<Buffer> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  try {
    const captured = new Promise<Buffer>((resolve) => {
      server.once('connection', (socket) => {
        let data = Buffer.alloc(0);
        socket.on('data', (chunk: Buffer) => {
          data = Buffer.concat([data, chunk]);
          if (data.length >= 5 && data.length >= 5 + data.readUInt16BE(3)) {
            resolve(data.subarray(0, 5 + data.readUInt16BE(3)));
            socket.destroy();
          }
        });
      });
    });
    const client = tls.connect({
      host: '127.0.0.1',
      port,
      ...(servername === undefined ? {} : { servername }),
    });
    client.on('error', () => undefined);
    const hello = await captured;
    client.destroy();
    return hello;
  } finally {
    server.close();
  }
}

/** Offset of the extensions block's 2-byte length in a one-record ClientHello. */
function extensionsOffset(record: Buffer): number {
  let at = 5 + 4 + 2 + 32;
  at += 1 + record[at]!;
  at += 2 + record.readUInt16BE(at);
  at += 1 + record[at]!;
  return at;
}

/** `record` (one-record ClientHello) with an extension of `type` and `data` appended, lengths fixed. */
export function withExtension(record: Buffer, type: number, data: Buffer): Buffer {
  const extension = Buffer.alloc(4 + data.length);
  extension.writeUInt16BE(type, 0);
  extension.writeUInt16BE(data.length, 2);
  data.copy(extension, 4);
  const out = Buffer.concat([record, extension]);
  const at = extensionsOffset(record);
  out.writeUInt16BE(record.readUInt16BE(at) + extension.length, at);
  out.writeUInt16BE(out.length - 5, 3);
  out.writeUIntBE(out.length - 9, 6, 3);
  return out;
}

/** The same handshake bytes as two TLS records, cut after `firstBytes` bytes of handshake. */
export function splitIntoRecords(record: Buffer, firstBytes: number): Buffer {
  const handshake = record.subarray(5);
  const header = (length: number) => {
    const h = Buffer.from(record.subarray(0, 5));
    h.writeUInt16BE(length, 3);
    return h;
  };
  return Buffer.concat([
    header(firstBytes),
    handshake.subarray(0, firstBytes),
    header(handshake.length - firstBytes),
    handshake.subarray(firstBytes),
  ]);
}
