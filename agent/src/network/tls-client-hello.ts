/**
 * Reads the server name (SNI) of a TLS ClientHello, and whether it carries Encrypted Client Hello,
 * from the first bytes a client sends, without decrypting anything (agent/README.md, «Sitios web por
 * nombre»). Pure. The ClientHello may come split across TCP segments and even across TLS records
 * (RFC 8446 section 5.1 lets a handshake message span records): call again with more bytes while the
 * answer is `incomplete`.
 */

/** The ECH extension's code point (draft-ietf-tls-esni, `encrypted_client_hello`). */
export const TLS_EXTENSION_ECH = 0xfe0d;
/** The `server_name` extension (RFC 6066 section 3). */
const TLS_EXTENSION_SERVER_NAME = 0x0000;
const RECORD_HANDSHAKE = 0x16;
const HANDSHAKE_CLIENT_HELLO = 0x01;
const RECORD_HEADER = 5;

/** What the bytes read so far say. */
export type ClientHelloResult =
  /** More bytes are needed: nothing new can be said before `needed` bytes in all have come. */
  | { kind: 'incomplete'; needed: number }
  /** Not a TLS ClientHello, malformed, or larger than the limit: `reason` is for logs (English). */
  | { kind: 'invalid'; reason: string }
  /**
   * A whole ClientHello: `serverName` lowercase without a trailing dot, or null when it names none
   * (or names something that is not a DNS name); `ech` true when the ECH extension is present.
   */
  | { kind: 'hello'; serverName: string | null; ech: boolean };

/** A DNS name as a server name may be: letters, digits, '-', '_' and dots, at most 253 characters. */
const DNS_NAME = /^(?=.{1,253}$)[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;

/** `name` lowercase without its trailing dot, or null when it is not a DNS name. */
export function normalizeHostName(name: string): string | null {
  const lower = name.toLowerCase().replace(/\.$/, '');
  return DNS_NAME.test(lower) ? lower : null;
}

/**
 * Parses the ClientHello at the start of `data` (the bytes the client sent so far).
 * @param maxBytes the most bytes a ClientHello may take (records included); past it the answer is
 * `invalid`, so a client cannot make the reader hold more.
 */
export function parseClientHello(data: Buffer, maxBytes = 16 * 1024): ClientHelloResult {
  // Reassemble the handshake bytes from consecutive handshake records.
  const fragments: Buffer[] = [];
  let handshakeBytes = 0;
  let offset = 0;
  let needed = -1; // the ClientHello's length with its 4-byte header, once known
  for (;;) {
    if (needed >= 0 && handshakeBytes >= needed) break;
    if (data.length < offset + RECORD_HEADER) return { kind: 'incomplete', needed: offset + RECORD_HEADER };
    if (data[offset] !== RECORD_HANDSHAKE) return { kind: 'invalid', reason: 'not a TLS handshake record' };
    if (data[offset + 1] !== 0x03) return { kind: 'invalid', reason: 'not a TLS record version' };
    const length = data.readUInt16BE(offset + 3);
    if (length === 0) return { kind: 'invalid', reason: 'empty TLS record' };
    if (offset + RECORD_HEADER + length > maxBytes)
      return { kind: 'invalid', reason: 'ClientHello too large' };
    if (data.length < offset + RECORD_HEADER + length)
      return { kind: 'incomplete', needed: offset + RECORD_HEADER + length };
    fragments.push(data.subarray(offset + RECORD_HEADER, offset + RECORD_HEADER + length));
    handshakeBytes += length;
    offset += RECORD_HEADER + length;
    if (needed < 0 && handshakeBytes >= 4) {
      const head = Buffer.concat(fragments);
      if (head[0] !== HANDSHAKE_CLIENT_HELLO) return { kind: 'invalid', reason: 'not a ClientHello' };
      needed = 4 + head.readUIntBE(1, 3);
      if (needed > maxBytes) return { kind: 'invalid', reason: 'ClientHello too large' };
    }
  }
  const hello = Buffer.concat(fragments).subarray(4, needed);
  return readHelloBody(hello);
}

/** Reads the extensions of a ClientHello's body (after its 4-byte handshake header). */
function readHelloBody(body: Buffer): ClientHelloResult {
  const bad = (reason: string): ClientHelloResult => ({ kind: 'invalid', reason });
  let at = 2 + 32; // legacy_version, random
  if (body.length < at + 1) return bad('truncated ClientHello');
  at += 1 + body[at]!; // legacy_session_id
  if (body.length < at + 2) return bad('truncated ClientHello');
  at += 2 + body.readUInt16BE(at); // cipher_suites
  if (body.length < at + 1) return bad('truncated ClientHello');
  at += 1 + body[at]!; // legacy_compression_methods
  // A ClientHello without extensions (SSL 3-era) names no server.
  if (body.length === at) return { kind: 'hello', serverName: null, ech: false };
  if (body.length < at + 2) return bad('truncated ClientHello');
  const end = at + 2 + body.readUInt16BE(at);
  if (end > body.length) return bad('truncated extensions');
  at += 2;
  let serverName: string | null = null;
  let ech = false;
  let sniSeen = false;
  while (at < end) {
    if (at + 4 > end) return bad('truncated extension');
    const type = body.readUInt16BE(at);
    const length = body.readUInt16BE(at + 2);
    const data = body.subarray(at + 4, at + 4 + length);
    if (at + 4 + length > end) return bad('truncated extension');
    at += 4 + length;
    if (type === TLS_EXTENSION_ECH) ech = true;
    else if (type === TLS_EXTENSION_SERVER_NAME) {
      // Twice is a malformed hello (RFC 8446 section 4.2): a server and the filter might read different ones.
      if (sniSeen) return bad('two server_name extensions');
      sniSeen = true;
      const name = readServerName(data);
      if (name === undefined) return bad('malformed server_name');
      serverName = name;
    }
  }
  return { kind: 'hello', serverName, ech };
}

/**
 * The host_name of a server_name extension's data: normalized, null when it is not a DNS name,
 * undefined when malformed (or naming more than one host name).
 */
function readServerName(data: Buffer): string | null | undefined {
  if (data.length < 2 || data.readUInt16BE(0) !== data.length - 2) return undefined;
  let at = 2;
  let found: string | null = null;
  let count = 0;
  while (at < data.length) {
    if (at + 3 > data.length) return undefined;
    const type = data[at]!;
    const length = data.readUInt16BE(at + 1);
    if (at + 3 + length > data.length) return undefined;
    if (type === 0) {
      count += 1;
      found = normalizeHostName(data.subarray(at + 3, at + 3 + length).toString('latin1'));
    }
    at += 3 + length;
  }
  return count > 1 ? undefined : found;
}
