/**
 * The DNS messages the agent's DNS forwarder (dns-forwarder.ts) reads and writes, through the
 * `dns-packet` library: a client's query read strictly, the replies it gets, the query sent upstream and
 * the upstream's answer reduced to what the contest allows (agent/README.md, «Sitios permitidos»).
 * Pure: no sockets here.
 */
import dnsPacket, { type Answer, type DecodedPacket, type Packet, type Question } from 'dns-packet';

/** Largest query accepted, over UDP or TCP (bytes): a name is at most 255, EDNS options add little. */
export const DNS_MAX_QUERY_BYTES = 512;

/** The most a UDP reply may be without EDNS (bytes, RFC 1035); longer ones are truncated (TC). */
const UDP_PLAIN_BYTES = 512;

/** The EDNS UDP payload size offered upstream and honoured for clients (bytes: DNS flag day 2020). */
const DNS_EDNS_BYTES = 1232;

/** Longest TTL given to a client (s): the agent follows a site's addresses every minute (network-guard.ts). */
const DNS_TTL_CAP_S = 60;

/** Response codes used (RFC 1035). */
export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;

/** The EDNS record the forwarder sends (upstream, and to a client that sent one): its UDP size, no DNSSEC. */
const EDNS: Answer = {
  type: 'OPT',
  name: '.',
  udpPayloadSize: DNS_EDNS_BYTES,
  extendedRcode: 0,
  ednsVersion: 0,
  flags: 0,
  flag_do: false,
  options: [],
};

const TYPE_A = 'A';
const TYPE_AAAA = 'AAAA';

/** A client's query, as read by `readQuery`. */
export interface ClientQuery {
  id: number;
  /** The question as the client wrote it (echoed in the reply, its letter case kept). */
  question: Question;
  /** The question's name, lowercase, no trailing dot (how allowed names are compared). */
  name: string;
  /** Whether the client asked for recursion (RD, echoed). */
  recursionDesired: boolean;
  /** The client's EDNS UDP payload size, or null without EDNS. */
  ednsBytes: number | null;
}

/**
 * Reads a client's query; null when it is not one to answer (dropped): not decodable, a response, not a
 * standard query, not exactly one question, a class unknown to dns-packet, or a question name not
 * written plainly (labels of letters, digits, `-` and `_`, no compression: a label holding a dot, e.g.
 * the one label `example.com`, would otherwise read as an allowed name).
 */
export function readQuery(message: Buffer): ClientQuery | null {
  if (message.length < 12 || message.length > DNS_MAX_QUERY_BYTES) return null;
  let packet: DecodedPacket & { opcode?: string };
  try {
    packet = dnsPacket.decode(message);
  } catch {
    return null;
  }
  const question = packet.questions?.[0];
  if (packet.type !== 'query' || packet.opcode !== 'QUERY' || packet.questions?.length !== 1 || !question)
    return null;
  // A class dns-packet does not know would be echoed as another one.
  if (!plainName(message, question.name) || (question.class ?? 'IN').startsWith('UNKNOWN_')) return null;
  const opt = packet.additionals?.find((r) => r.type === 'OPT');
  return {
    id: packet.id ?? 0,
    question,
    name: question.name.toLowerCase().replace(/\.$/, ''),
    recursionDesired: packet.flag_rd,
    ednsBytes: opt && 'udpPayloadSize' in opt ? opt.udpPayloadSize : null,
  };
}

/** Whether the question's name in `message` (right after the header) is exactly `name` written plainly. */
function plainName(message: Buffer, name: string): boolean {
  if (name !== '.' && !/^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*\.?$/i.test(name)) return false;
  const labels = name === '.' ? [] : name.replace(/\.$/, '').split('.');
  let offset = 12;
  for (const label of labels) {
    if (message[offset] !== label.length) return false;
    if (message.toString('latin1', offset + 1, offset + 1 + label.length) !== label) return false;
    offset += label.length + 1;
  }
  return message[offset] === 0;
}

/** Whether the question is of class IN and asks for A or AAAA (the only ones asked upstream). */
export function asksAddresses(question: Question): boolean {
  return (question.class ?? 'IN') === 'IN' && (question.type === TYPE_A || question.type === TYPE_AAAA);
}

/**
 * The reply to `query`: its id and question, `rcode`, the given answer records, and an EDNS record when
 * the query had one. A UDP reply longer than the client takes (512 bytes, or its EDNS size up to
 * `DNS_EDNS_BYTES`) goes without its answers and with TC set, so the client asks again over TCP.
 */
export function reply(
  query: ClientQuery,
  rcode: number,
  answers: Answer[],
  transport: 'udp' | 'tcp',
): Buffer {
  const packet = (withAnswers: Answer[], truncated: boolean): Packet => ({
    id: query.id,
    type: 'response',
    flags:
      (query.recursionDesired ? dnsPacket.RECURSION_DESIRED : 0) |
      dnsPacket.RECURSION_AVAILABLE |
      (truncated ? dnsPacket.TRUNCATED_RESPONSE : 0) |
      rcode,
    questions: [query.question],
    answers: withAnswers,
    additionals: query.ednsBytes === null ? [] : [EDNS],
  });
  const full = dnsPacket.encode(packet(answers, false));
  const limit =
    query.ednsBytes === null
      ? UDP_PLAIN_BYTES
      : Math.min(DNS_EDNS_BYTES, Math.max(UDP_PLAIN_BYTES, query.ednsBytes));
  if (transport === 'tcp' || full.length <= limit) return full;
  return dnsPacket.encode(packet([], true));
}

/** The query sent upstream for `question` (recursion desired, EDNS with `DNS_EDNS_BYTES`). */
export function upstreamQuery(id: number, question: Question): Buffer {
  return dnsPacket.encode({
    id,
    type: 'query',
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ name: question.name, type: question.type, class: question.class ?? 'IN' }],
    additionals: [EDNS],
  });
}

/** What an upstream answer says: truncated (ask over TCP), final (rcode and records), or unusable. */
export type UpstreamReading =
  | { kind: 'foreign' }
  | { kind: 'truncated' }
  | { kind: 'final'; rcode: number; answers: Answer[] }
  | { kind: 'unusable' };

/**
 * Reads the upstream's answer to the query `id` for `question`. Foreign: not a response, another id or
 * another question (ignored: not an answer to this query). Unusable: not decodable, without its
 * question, or an rcode other than NOERROR and NXDOMAIN (the next resolver is asked). Final: the answer
 * section reduced to the CNAME chain from the question's name and the A or AAAA records (the type asked)
 * of the names on it, each TTL capped at `DNS_TTL_CAP_S`; authority and additional records are dropped.
 */
export function readUpstream(message: Buffer, id: number, question: Question): UpstreamReading {
  let packet: DecodedPacket & { rcode?: string };
  try {
    packet = dnsPacket.decode(message);
  } catch {
    return { kind: 'unusable' };
  }
  if (packet.type !== 'response' || packet.id !== id) return { kind: 'foreign' };
  const echoed = packet.questions?.[0];
  if (
    echoed &&
    (packet.questions?.length !== 1 ||
      echoed.name.toLowerCase() !== question.name.toLowerCase() ||
      echoed.type !== question.type)
  )
    return { kind: 'foreign' };
  if (packet.flag_tc) return { kind: 'truncated' };
  const rcode =
    packet.rcode === 'NOERROR' ? RCODE.NOERROR : packet.rcode === 'NXDOMAIN' ? RCODE.NXDOMAIN : null;
  // A refusal or failure may come without its question (FORMERR, SERVFAIL): the next resolver is asked.
  if (rcode === null || !echoed) return { kind: 'unusable' };
  return { kind: 'final', rcode, answers: chain(packet.answers ?? [], question) };
}

/** The CNAME chain from the question's name and the records of the type asked on it (TTL capped). */
function chain(records: Answer[], question: Question): Answer[] {
  const inClass = records.filter(
    (r): r is Answer & { ttl?: number; data: string } =>
      (r.type === 'CNAME' || r.type === question.type) &&
      ((r as { class?: string }).class ?? 'IN') === 'IN' &&
      typeof (r as { data?: unknown }).data === 'string',
  );
  const names = new Set([lower(question.name)]);
  const kept = new Set<Answer>();
  // A chain is short; each round adds the CNAMEs whose owner is already on it.
  for (let grown = true; grown;) {
    grown = false;
    for (const r of inClass) {
      if (r.type !== 'CNAME' || kept.has(r) || !names.has(lower(r.name))) continue;
      kept.add(r);
      names.add(lower(r.data));
      grown = true;
    }
  }
  return inClass
    .filter((r) => kept.has(r) || (r.type === question.type && names.has(lower(r.name))))
    .map((r) => ({ ...r, ttl: Math.min(r.ttl ?? 0, DNS_TTL_CAP_S) }) as Answer);
}

const lower = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * Splits TCP bytes into DNS messages (each after its 2-byte length, RFC 1035 4.2.2): the whole messages
 * in `pending` + `chunk`, and the bytes left over (the start of the next one).
 */
export function tcpMessages(pending: Buffer, chunk: Buffer): { messages: Buffer[]; rest: Buffer } {
  let buffer = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
  const messages: Buffer[] = [];
  while (buffer.length >= 2) {
    const length = buffer.readUInt16BE(0);
    if (buffer.length < 2 + length) break;
    messages.push(buffer.subarray(2, 2 + length));
    buffer = buffer.subarray(2 + length);
  }
  return { messages, rest: buffer };
}

/** The length a TCP message announces (its first 2 bytes), or null before they arrive. */
export function tcpAnnounced(pending: Buffer): number | null {
  return pending.length < 2 ? null : pending.readUInt16BE(0);
}

/** `message` with its 2-byte length prefix, as sent over TCP. */
export function tcpFrame(message: Buffer): Buffer {
  const prefix = Buffer.alloc(2);
  prefix.writeUInt16BE(message.length);
  return Buffer.concat([prefix, message]);
}
