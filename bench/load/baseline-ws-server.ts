/**
 * Child process of the push baseline (baseline-ws.ts): a bare `ws` server on a free loopback port that
 * replays the frames the run's recording screen received, byte for byte, to every connected client.
 *
 * Told `{type: 'run', frames}` over IPC (each frame cut around its `committed_at`, frame-header.ts
 * `SplitFrame`, with `offset` = its committed_at minus the first one's, ms), it sends frame i when it is
 * due, at `start + offset_i` on the shared clock `clockMs()`, with `committed_at` rewritten to that due
 * time: a push that waits for nothing (no tick, no database), whose latency the clients measure exactly
 * as in the run (`receive - committed_at`). A frame sent late because the previous fan-out was still
 * going keeps its due time, as a product frame keeps its commit time. Each frame is encoded once and the
 * same Buffer written to every client; the clients' `board.ack` messages are read and ignored. Answers
 * `{type: 'done', frames, lateMs}` (frames sent, worst lateness of a send after its due time).
 */
import { clockMs } from '@concurso/shared';
import { WebSocketServer } from 'ws';

/** One frame to replay. */
export interface ReplayFrame {
  prefix: string;
  suffix: string;
  /** ms after the first frame's due time. */
  offset: number;
}

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
const send = (message: unknown) => process.send!(message);

wss.on('listening', () => {
  const address = wss.address();
  send({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
});
// Acknowledgements and anything else the clients send: read (as a server must) and dropped.
wss.on('connection', (ws) => ws.on('message', () => undefined));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function replay(frames: ReplayFrame[]): Promise<void> {
  // Start a little ahead so the first frame is not already late.
  const start = clockMs() + 20;
  let lateMs = 0;
  for (const frame of frames) {
    const due = start + frame.offset;
    let wait = due - clockMs();
    // Timers are coarse (≈1 ms): sleep most of the wait, then yield until due.
    if (wait > 2) await sleep(wait - 1.5);
    while ((wait = due - clockMs()) > 0) await new Promise((resolve) => setImmediate(resolve));
    lateMs = Math.max(lateMs, -wait);
    const bytes = Buffer.from(frame.prefix + String(Math.round(due * 1000) / 1000) + frame.suffix, 'utf8');
    for (const client of wss.clients) client.send(bytes, { binary: false });
  }
  send({ type: 'done', frames: frames.length, lateMs });
}

process.on('message', (message: { type: string; frames?: ReplayFrame[] }) => {
  if (message.type === 'stop') {
    for (const client of wss.clients) client.terminate();
    wss.close(() => process.exit(0));
    return;
  }
  if (message.type === 'run') void replay(message.frames ?? []);
});

process.on('disconnect', () => process.exit(0));
