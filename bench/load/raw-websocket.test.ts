import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { RawWebSocket, clientFrame } from './raw-websocket.js';

/* The lean screens' client against the `ws` server (what Socket.IO runs on): every kind of frame. */

let server: WebSocketServer;
let url: string;
const connections: WebSocket[] = [];
const received: string[] = [];
const pongs: string[] = [];

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  server.on('connection', (ws) => {
    connections.push(ws);
    ws.on('message', (data) => received.push(data.toString()));
    ws.on('pong', (data) => pongs.push(data.toString()));
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/socket.io/?EIO=4&transport=websocket`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const waitFor = async (check: () => boolean) => {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

function client() {
  const messages: string[] = [];
  let opened = false;
  let closed = 0;
  const socket = new RawWebSocket(url, {
    onOpen: () => (opened = true),
    onMessage: (data) => messages.push(data.toString('utf8')),
    onClose: () => closed++,
  });
  return { socket, messages, opened: () => opened, closed: () => closed };
}

describe('RawWebSocket', () => {
  it('upgrades, receives small, medium, large and fragmented messages in order, and sends masked frames', async () => {
    const c = client();
    await waitFor(() => c.opened() && connections.length === 1);
    const ws = connections[0]!;
    const medium = 'm'.repeat(300) + 'ñ';
    const large = 'L'.repeat(200_000);
    ws.send('42["board.frame",[1,2,[]]]');
    ws.send(medium);
    ws.send(large);
    // A fragmented message: three frames, the last with FIN.
    ws.send('uno ', { fin: false });
    ws.send('dos ', { fin: false });
    ws.send('tres', { fin: true });
    ws.send(Buffer.from('binario'), { binary: true });
    await waitFor(() => c.messages.length === 5);
    expect(c.messages).toEqual(['42["board.frame",[1,2,[]]]', medium, large, 'uno dos tres', 'binario']);
    c.socket.send('40{"token":"t"}');
    c.socket.sendFrame(clientFrame(Buffer.from('42["board.ack",7]')));
    c.socket.send('x'.repeat(70_000));
    await waitFor(() => received.length === 3);
    expect(received.slice(0, 2)).toEqual(['40{"token":"t"}', '42["board.ack",7]']);
    expect(received[2]).toHaveLength(70_000);
    c.socket.terminate();
    await waitFor(() => c.closed() === 1);
  });

  it('answers a ping with a pong and a close with a close', async () => {
    const c = client();
    await waitFor(() => c.opened() && connections.length === 2);
    const ws = connections[1]!;
    ws.ping('latido');
    await waitFor(() => pongs.length === 1);
    expect(pongs).toEqual(['latido']);
    const closedOnServer = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.close(1000, 'fin');
    expect(await closedOnServer).toBe(1000);
    await waitFor(() => c.closed() === 1);
    expect(c.socket.open).toBe(false);
  });

  it('reports a refused upgrade as a close without opening', async () => {
    let opened = false;
    let closed = false;
    new RawWebSocket(url.replace(/:\d+\//, ':1/'), {
      onOpen: () => (opened = true),
      onMessage: () => undefined,
      onClose: () => (closed = true),
    });
    await waitFor(() => closed);
    expect(opened).toBe(false);
  });
});
