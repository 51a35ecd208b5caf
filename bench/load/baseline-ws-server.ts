/**
 * Child process of the ws baseline (baseline-ws.ts): a bare `ws` server on a free loopback port that,
 * when told `{type:'run', framesPerS, rowsPerFrame, durationS}` over IPC, broadcasts that many frames
 * per second to every connected client. Each frame carries `rowsPerFrame` board rows like
 * `teams.updated`, serialised once, plus `sent`: metrics.now() (ms) just before the fan-out, from
 * which the clients compute the latency.
 */
import { WebSocketServer } from 'ws';
import { now } from './metrics.js';

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
const send = (message: unknown) => process.send!(message);

wss.on('listening', () => {
  const address = wss.address();
  send({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
});

interface RunMessage {
  type: string;
  framesPerS?: number;
  rowsPerFrame?: number;
  durationS?: number;
}

process.on('message', (message: RunMessage) => {
  if (message.type === 'stop') {
    for (const client of wss.clients) client.terminate();
    wss.close(() => process.exit(0));
    return;
  }
  if (message.type !== 'run') return;
  const rate = message.framesPerS!;
  const rowsPerFrame = Math.max(1, message.rowsPerFrame ?? 1);
  const durationMs = message.durationS! * 1000;
  const started = now();
  let events = 0;
  const timer = setInterval(() => {
    const elapsed = now() - started;
    const due = Math.floor((rate * Math.min(elapsed, durationMs)) / 1000) - events;
    for (let k = 0; k < due; k++) {
      events++;
      const teams = Array.from({ length: rowsPerFrame }, (_, r) => ({
        id: 1 + ((events * rowsPerFrame + r) % 500),
        name: `Equipo ${(events * rowsPerFrame + r) % 500}`,
        levels_id: 1 + (events % 3),
        number_attempts: events,
        status_team: { id: 1, status: 'Activo' },
        agent_online: true,
        version: events,
      }));
      const payload = JSON.stringify({ sent: now(), teams });
      for (const client of wss.clients) client.send(payload);
    }
    if (elapsed >= durationMs) {
      clearInterval(timer);
      send({ type: 'done', events });
    }
  }, 5);
});

process.on('disconnect', () => process.exit(0));
