/**
 * Asks the contest's upstream DNS resolvers one question for the DNS forwarder (dns-forwarder.ts): over
 * UDP from a fresh socket (a new random source port and id for each query), over TCP when the answer is
 * truncated, the next resolver when one does not answer in time or fails; the whole wait is bounded.
 */
import { randomInt } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import type { Answer, Question } from 'dns-packet';
import { readUpstream, tcpFrame, tcpMessages, upstreamQuery } from './dns-message.js';

/** An upstream resolver. */
export interface UpstreamResolver {
  address: string;
  version: 4 | 6;
}

/** The longest wait for one resolver (ms), UDP and a TCP retry together. */
const DNS_ATTEMPT_MS = 1_000;

/** The longest wait for an answer over every resolver (ms): a stub resolver gives up not much later. */
const DNS_TOTAL_MS = 2_000;

/** An upstream's final answer: its rcode, the records kept (`readUpstream`), and which resolver it was. */
export interface UpstreamAnswer {
  rcode: number;
  answers: Answer[];
  resolver: number;
}

/**
 * Asks `question` of the resolvers in turn from index `first` (the one that answered last), each for at
 * most `DNS_ATTEMPT_MS`, all for at most `DNS_TOTAL_MS`. Answers the first final answer, or null when
 * none came (no resolvers, timeouts, failures). Never throws.
 */
export async function askUpstream(
  resolvers: readonly UpstreamResolver[],
  port: number,
  question: Question,
  first: number,
): Promise<UpstreamAnswer | null> {
  const deadline = Date.now() + DNS_TOTAL_MS;
  for (let i = 0; i < resolvers.length; i++) {
    const index = (first + i) % resolvers.length;
    const left = deadline - Date.now();
    if (left <= 0) break;
    const answer = await attempt(resolvers[index]!, port, question, Math.min(DNS_ATTEMPT_MS, left));
    if (answer) return { ...answer, resolver: index };
  }
  return null;
}

/** One resolver: UDP, then TCP if truncated, within `ms`. Null when it did not give a final answer. */
async function attempt(
  resolver: UpstreamResolver,
  port: number,
  question: Question,
  ms: number,
): Promise<{ rcode: number; answers: Answer[] } | null> {
  const until = Date.now() + ms;
  const overUdp = await exchange(resolver, port, question, ms, 'udp');
  if (overUdp !== 'truncated') return overUdp;
  const left = until - Date.now();
  if (left <= 0) return null;
  const overTcp = await exchange(resolver, port, question, left, 'tcp');
  return overTcp === 'truncated' ? null : overTcp;
}

/** One query and its answer over one transport, within `ms`. */
function exchange(
  resolver: UpstreamResolver,
  port: number,
  question: Question,
  ms: number,
  transport: 'udp' | 'tcp',
): Promise<{ rcode: number; answers: Answer[] } | 'truncated' | null> {
  const id = randomInt(0, 0x10000);
  const query = upstreamQuery(id, question);
  return new Promise((resolve) => {
    let close = () => undefined as void;
    let settled = false;
    const timer = setTimeout(() => settle(null), ms);
    const settle = (result: { rcode: number; answers: Answer[] } | 'truncated' | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        close();
      } catch {
        // Already closed by its error.
      }
      resolve(result);
    };
    /** Answers whether `message` settled the exchange. */
    const read = (message: Buffer): boolean => {
      const reading = readUpstream(message, id, question);
      if (reading.kind === 'foreign') return false;
      settle(
        reading.kind === 'truncated'
          ? 'truncated'
          : reading.kind === 'final'
            ? { rcode: reading.rcode, answers: reading.answers }
            : null,
      );
      return true;
    };
    if (transport === 'udp') {
      const socket = dgram.createSocket(resolver.version === 4 ? 'udp4' : 'udp6');
      close = () => socket.close();
      socket.on('error', () => settle(null));
      socket.on('message', (message) => void read(message));
      socket.connect(port, resolver.address, () => socket.send(query));
    } else {
      const socket = net.connect({ host: resolver.address, port });
      close = () => void socket.destroy();
      let pending: Buffer = Buffer.alloc(0);
      socket.on('error', () => settle(null));
      socket.on('close', () => settle(null));
      socket.on('connect', () => socket.write(tcpFrame(query)));
      socket.on('data', (chunk) => {
        const { messages, rest } = tcpMessages(pending, chunk);
        pending = rest;
        for (const message of messages) if (read(message)) return;
      });
    }
  });
}
