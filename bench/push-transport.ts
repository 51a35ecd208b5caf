/**
 * `npm run bench:transport [-- --screens 2000 --rows 60 --rate 20 --seconds 10 --runs 3]`: what the
 * Socket.IO/`ws` transport options cost or save for the board push: whether the `ws` transport options
 * (`perMessageDeflate` off, `wsPreEncodedFrame`, a msgpack parser) gain anything, so the product keeps
 * only what the numbers justify.
 *
 * A micro-benchmark, self-contained: no database, no product server. Each run is a fresh server
 * process running Socket.IO (the product's version, in-memory adapter, no middleware) with N bare `ws`
 * screens held in 1–2 child processes (they speak the Engine.IO v4 / Socket.IO v5 protocol by hand:
 * open, `40`, answer ping `2` with `3`), all in one room `level:1`. The server broadcasts one frame of R
 * fake teams' rows per tick (`board.frame` = `[seq, clockMs(), rows]` built with `encodeBoardRow`) at
 * a fixed rate. With `--ack on` every screen acknowledges each frame with `board.ack` (the server's
 * handler does nothing; off by default: at 2000 screens the acks cost the server about as much as the
 * push and load the screens' CPU past the limit below). Configurations (`--configs`, comma-separated):
 * - `a-broadcast`: `io.local.to(room).emit(...)`, perMessageDeflate off: the product today; the
 *   adapter encodes the packet once and pre-computes the WebSocket frame (`wsPreEncodedFrame`);
 * - `b-per-socket`: the same frame emitted socket by socket (each encodes and frames it again);
 * - `c-deflate`: as `a` with the server option `perMessageDeflate: { threshold: 1024 }` and screens
 *   that accept it (then Engine.IO skips the pre-computed frame and each socket compresses its copy);
 * - `d-msgpack`: as `a` with `socket.io-msgpack-parser` on the server and the screens (binary frames;
 *   the adapter encodes once but pre-computes no frame for binary packets);
 * - `e-old-json`: the rows as `BoardTeam` objects (`teams.updated`, the format before the push rework), for
 *   the tuple format's saving; the commit stamp travels as a small extra argument `[seq, clockMs()]`.
 *
 * Measured per run over the S measured seconds (after 1 s of warm-up ticks):
 * - server: CPU of the emit call per tick (`process.cpuUsage` around it, user + system, µs) and per
 *   socket write (that / N); the whole process's CPU over the window (ms per tick and % of one core,
 *   including acks, async writes, compression threads, GC); its event-loop utilisation; max RSS;
 * - wire: a frame's mean size as the screens get it (`payload_bytes`, decompressed) and the bytes they
 *   read per frame (`wire_bytes_per_frame`: TCP bytes read / frames, WebSocket headers and compression
 *   included); `ws_frames_built_per_tick`: WebSocket frames `ws` builds per tick (`Sender.frame`
 *   calls): 1 when the broadcast's pre-encoded frame is used, N when each socket frames its copy;
 * - screens: latency = receive time − the frame's `committed_at` (same machine clock `clockMs()`), p50,
 *   p99, max over every frame of every screen; the client processes' ELU (a run with a client
 *   process at ELU ≥ 0.5 is marked invalid: the screens, not the server, would be what is measured).
 *   Each screen reads only the frame's header (seq, committed_at); screen 0 of each process decodes
 *   every frame fully and checks it (`verified`, `bad`).
 * With `taskset` and ≥ 2 CPUs, the server is pinned to the first half of the CPUs and the client
 * processes to the second half (the load tester's plan, load/pinning.ts): CPU 0 and CPU 1 on 2 cores.
 * Before each run it waits (up to `--wait-quiet` s) for the machine to be under 30 % of one core busy,
 * and records the load average and how busy it was; a run during which other processes used more than
 * `--max-others` % of one core (15) is done again, at most `--retries` times (3). Each configuration
 * runs `--runs` times (configs interleaved); the summary is each figure's median. Prints JSON;
 * `--md FILE` also writes a Markdown table. Other options: `--teams` (500, the level's teams the
 * changed rows are drawn from), `--clients` (2 processes), `--ack on|off`, `--pin on|off`, `--configs`.
 * Bounded: at most 5 000 screens, 100 ticks/s, 60 s; traffic only on 127.0.0.1. A configuration that
 * cannot keep up (c-deflate at 2000 screens) queues frames in memory: expect ~1–2 GB RSS for a run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Server, type ServerOptions, type Socket } from 'socket.io';
import msgpackParser from 'socket.io-msgpack-parser';
import WebSocket from 'ws';
import {
  TEAM_STATUS,
  TEAM_STATUS_NAMES,
  clockMs,
  encodeBoardRow,
  seededRandom,
  type BoardFrame,
  type BoardTeam,
} from '@concurso/shared';
import { parseFrameHeader } from './load/frame-header.js';
// Type only: the main process loads it lazily (see main()).
import type { median as medianOfRuns } from './load/median.js';
import { pinPlan, pinProcess } from './load/pinning.js';
import { jiffiesPct, machineTicks, ticks, waitForQuiet } from './load/proc-sampler.js';

/** The configurations measured (see the docstring). */
const CONFIGS = ['a-broadcast', 'b-per-socket', 'c-deflate', 'd-msgpack', 'e-old-json'] as const;
type Config = (typeof CONFIGS)[number];

/** Warm-up before the measured window (s): JIT, buffers and compression contexts settle. */
const WARMUP_S = 1;
/** A client process at or above this event-loop utilisation makes the run invalid. */
const CLIENT_ELU_LIMIT = 0.5;
/** Screens connecting at once per client process. */
const CONNECT_CONCURRENCY = 50;
/** How long the server waits after the last tick for the screens to get every frame (ms). */
const STOP_WAIT_MS = 5_000;
const ROOM = 'level:1';
const SELF = fileURLToPath(import.meta.url);

/** What one run measures; times in ms unless the name says µs, sizes in bytes. */
interface RunResult {
  config: Config;
  run: number;
  screens: number;
  rows: number;
  rate: number;
  seconds: number;
  ticks: number;
  pinned: string;
  /** The 1-min load average and busy % (of one core) before the run; others' CPU during the window. */
  machine: { loadavg_1m: number; busy_pct_before: number; others_pct_during: number };
  emit_cpu_us_per_tick: { p50: number; mean: number; p99: number };
  emit_wall_ms_per_tick: { p50: number; p99: number };
  emit_cpu_us_per_write: number;
  /** Ticks per second actually sent over the window (below `rate`: the server could not keep up). */
  achieved_rate: number;
  server_cpu_ms_per_tick: number;
  server_cpu_pct: number;
  server_elu: number;
  server_max_rss_mb: number;
  payload_bytes: number;
  ws_frames_built_per_tick: number;
  wire_bytes_per_frame: number;
  latency_ms: { p50: number; p99: number; max: number };
  frames_expected: number;
  frames_received: number;
  client_elu: number[];
  client_cpu_pct: number;
  verified: number;
  bad: number;
  valid: boolean;
}

/** Client → server process messages. */
type ClientReport =
  | { kind: 'ready' }
  /** Every screen of the process has every measured frame. */
  | { kind: 'complete' }
  | {
      kind: 'result';
      latencies: Float64Array;
      received: number;
      wireBytes: number;
      /** Bytes of the measured frames as the screens got them (decompressed). */
      payloadBytes: number;
      elu: number;
      verified: number;
      bad: number;
    };

/** Server → client process messages. */
type ClientCommand = { kind: 'stop' };

/** Arguments of a client process. */
interface ClientArgs {
  port: number;
  count: number;
  config: Config;
  rows: number;
  from: number;
  to: number;
  ack: boolean;
}

/** Arguments of a server process. */
interface ServerArgs {
  config: Config;
  run: number;
  screens: number;
  teams: number;
  rows: number;
  rate: number;
  seconds: number;
  ack: boolean;
  /** CPU lists for `taskset -c` (pinning.ts's plan), or null: nothing pinned. */
  pin: { servers: string; tester: string } | null;
  clients: number;
}

// ---------------------------------------------------------------------------------------------
// Shared helpers

function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

const round = (v: number, digits = 1) => Number(v.toFixed(digits));

/** Pins every thread of `pid` to `cpus` (pinning.ts); false, with a warning, when taskset fails. */
function tryPin(pid: number, cpus: string): boolean {
  try {
    pinProcess(pid, cpus);
    return true;
  } catch (err) {
    process.stderr.write(`not pinned: ${err instanceof Error ? err.message : String(err)}\n`);
    return false;
  }
}

/** CPU time of process `pid` so far in jiffies (proc-sampler.ts); 0 once it is gone. */
const processTicks = (pid: number | undefined): number => (pid === undefined ? null : ticks(pid)) ?? 0;

// ---------------------------------------------------------------------------------------------
// Fake board

/** The level's `count` teams, with realistic names (accents: multi-byte UTF-8, as in the product). */
function fakeTeams(count: number): BoardTeam[] {
  return Array.from({ length: count }, (_, i) => ({
    id: 1000 + i,
    name: `Equipo ${i + 1} · ${FACULTIES[i % FACULTIES.length]}`,
    levels_id: 1,
    number_attempts: i % 5,
    status_team: { id: TEAM_STATUS.active, status: TEAM_STATUS_NAMES[TEAM_STATUS.active]! },
    agent_online: i % 7 !== 0,
    agent_alert: null,
    version: 1,
  }));
}

const FACULTIES = [
  'Facultad de Ingeniería Mecánica y Eléctrica',
  'Instituto Tecnológico de Estudios Superiores',
  'Universidad Autónoma, Campus Norte',
  'Escuela Superior de Cómputo',
  'Facultad de Ciencias Físico-Matemáticas',
];

/**
 * One tick's changes: `rows` distinct teams of the level, picked at random (seeded, the same in every
 * run), each with a new version; answers them in id order. Different teams each tick, so compression
 * cannot simply find the previous frame again.
 */
function changedTeams(teams: BoardTeam[], rows: number, random: () => number): BoardTeam[] {
  const picked = new Set<number>();
  while (picked.size < Math.min(rows, teams.length)) picked.add(Math.floor(random() * teams.length));
  return [...picked]
    .sort((a, b) => a - b)
    .map((i) => {
      const team = teams[i]!;
      team.version += 1;
      if (random() < 0.3) team.number_attempts += 1;
      if (random() < 0.05) team.agent_online = !team.agent_online;
      return team;
    });
}

// ---------------------------------------------------------------------------------------------
// Server process

async function serverMain(args: ServerArgs): Promise<RunResult> {
  const pinned = args.pin !== null && tryPin(process.pid, args.pin.servers);
  const options: Partial<ServerOptions> = { serveClient: false };
  if (args.config === 'c-deflate') options.perMessageDeflate = { threshold: 1024 };
  if (args.config === 'd-msgpack') options.parser = msgpackParser;

  const http = createServer();
  const io = new Server(http, options);
  const sockets: Socket[] = [];
  io.on('connection', (socket) => {
    void socket.join(ROOM);
    sockets.push(socket);
    // The product's handler does its credit bookkeeping here; the transport cost is decoding it.
    socket.on('board.ack', () => {});
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;

  const interval = 1000 / args.rate;
  const warmupTicks = Math.round(WARMUP_S * args.rate);
  const ticks = Math.round(args.seconds * args.rate);
  const from = warmupTicks + 1;
  const to = warmupTicks + ticks;

  // Client processes, pinned to the tester's CPUs (CPU 1 on 2 cores) as soon as they exist.
  const clients: ChildProcess[] = [];
  const per = Math.ceil(args.screens / args.clients);
  for (let c = 0; c < args.clients; c++) {
    const count = Math.min(per, args.screens - c * per);
    if (count <= 0) break;
    const clientArgs: ClientArgs = {
      port,
      count,
      config: args.config,
      rows: args.rows,
      from,
      to,
      ack: args.ack,
    };
    const child = fork(SELF, ['--role', 'client', '--json', JSON.stringify(clientArgs)], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    if (pinned && child.pid) tryPin(child.pid, args.pin!.tester);
    clients.push(child);
  }
  const reports = clients.map(
    (child) =>
      new Promise<Extract<ClientReport, { kind: 'result' }>>((resolve, reject) => {
        child.on('message', (m: ClientReport) => m.kind === 'result' && resolve(m));
        child.once('exit', (code) => reject(new Error(`client process exited (${code}) before reporting`)));
      }),
  );
  reports.forEach((p) => p.catch(() => {}));
  await Promise.all(
    clients.map(
      (child) =>
        new Promise<void>((resolve, reject) => {
          child.on('message', (m: ClientReport) => m.kind === 'ready' && resolve());
          child.once('exit', (code) =>
            reject(new Error(`client process exited (${code}) before connecting`)),
          );
        }),
    ),
  );
  if (sockets.length !== args.screens || io.of('/').adapter.rooms.get(ROOM)?.size !== args.screens) {
    throw new Error(`${sockets.length} sockets connected, ${args.screens} expected`);
  }

  const teams = fakeTeams(args.teams);
  const random = seededRandom(12);
  const emitCpu: number[] = [];
  const emitWall: number[] = [];
  // How many WebSocket frames `ws` builds (`Sender.frame`): 1 per tick when the adapter's pre-encoded
  // frame is used, one per socket otherwise. The adapter and Engine.IO each have their own copy of
  // `ws` (8.21 under node_modules/socket.io-adapter and node_modules/engine.io): both are counted.
  let framesBuilt = 0;
  const require = createRequire(import.meta.url);
  const senders = new Set(
    ['socket.io-adapter', 'engine.io'].map(
      (owner) =>
        (createRequire(require.resolve(owner))('ws') as { Sender: { frame: (...a: unknown[]) => Buffer[] } })
          .Sender,
    ),
  );
  for (const Sender of senders) {
    const frameOriginal = Sender.frame;
    Sender.frame = function (this: unknown, ...a: unknown[]) {
      framesBuilt += 1;
      return frameOriginal.apply(this, a);
    };
  }
  let framesBuiltStart = 0;
  let cpuStart = process.cpuUsage();
  let eluStart = performance.eventLoopUtilization();
  let machineStart = machineTicks();
  let machineEnd = machineStart;
  const clientTicks = () => clients.reduce((n, child) => n + processTicks(child.pid), 0);
  let clientsStart = 0;
  let clientsEnd = 0;
  let selfStart = 0;
  let selfEnd = 0;
  let cpuEnd = cpuStart;
  let eluEnd = eluStart;

  /** Builds and emits tick `seq`'s frame; measured ticks record the emit's CPU and wall time. */
  const tick = (seq: number) => {
    const changed = changedTeams(teams, args.rows, random);
    const old = args.config === 'e-old-json';
    // Built before the stamp, as the product builds rows when the change is gathered.
    const objects = old ? changed.map((t) => ({ ...t, status_team: { ...t.status_team } })) : [];
    const tuples = old ? [] : changed.map(encodeBoardRow);
    const committedAt = clockMs();
    const frame: BoardFrame = [seq, committedAt, tuples];
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    if (old) io.local.to(ROOM).emit('teams.updated', objects, [seq, committedAt]);
    else if (args.config === 'b-per-socket') for (const socket of sockets) socket.emit('board.frame', frame);
    else io.local.to(ROOM).emit('board.frame', frame);
    const wall = performance.now() - wall0;
    const cpu = process.cpuUsage(cpu0);
    if (seq >= from && seq <= to) {
      emitCpu.push(cpu.user + cpu.system);
      emitWall.push(wall);
    }
  };

  // Fixed-rate ticks (no drift: tick k is due at start + k·interval).
  await new Promise<void>((resolve) => {
    const start = performance.now();
    let seq = 0;
    const next = () => {
      seq += 1;
      if (seq === from) {
        framesBuiltStart = framesBuilt;
        cpuStart = process.cpuUsage();
        eluStart = performance.eventLoopUtilization();
        machineStart = machineTicks();
        clientsStart = clientTicks();
        selfStart = processTicks(process.pid);
      }
      if (seq === to + 1) {
        // The window ends when tick `to + 1` would be due: the last tick's async work is inside it.
        cpuEnd = process.cpuUsage(cpuStart);
        machineEnd = machineTicks();
        clientsEnd = clientTicks();
        selfEnd = processTicks(process.pid);
        eluEnd = performance.eventLoopUtilization(eluStart);
        resolve();
        return;
      }
      tick(seq);
      setTimeout(next, Math.max(0, start + seq * interval - performance.now()));
    };
    next();
  });
  const framesBuiltInWindow = framesBuilt - framesBuiltStart;
  // Let the last frames arrive: until every client process has them all, at most STOP_WAIT_MS (a
  // configuration that cannot keep up reports the frames delivered by then).
  await Promise.race([
    Promise.all(
      clients.map(
        (child) =>
          new Promise<void>((resolve) =>
            child.on('message', (m: ClientReport) => m.kind === 'complete' && resolve()),
          ),
      ),
    ),
    new Promise((r) => setTimeout(r, STOP_WAIT_MS)),
  ]);
  for (const child of clients) child.send({ kind: 'stop' } satisfies ClientCommand);
  const results = await Promise.all(reports);
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  for (const child of clients) child.kill();
  io.close();

  const latencies = new Float64Array(results.reduce((n, r) => n + r.latencies.length, 0));
  let offset = 0;
  for (const r of results) {
    latencies.set(r.latencies, offset);
    offset += r.latencies.length;
  }
  latencies.sort();
  const received = results.reduce((n, r) => n + r.received, 0);
  const wireBytes = results.reduce((n, r) => n + r.wireBytes, 0);
  const sortedCpu = [...emitCpu].sort((a, b) => a - b);
  const sortedWall = [...emitWall].sort((a, b) => a - b);
  const meanCpu = emitCpu.reduce((a, b) => a + b, 0) / emitCpu.length;
  const totalCpuMs = (cpuEnd.user + cpuEnd.system) / 1000;
  const clientElu = results.map((r) => round(r.elu, 3));
  // The window's real length: longer than `seconds` when the server could not keep the rate.
  const windowMs = eluEnd.active + eluEnd.idle;
  const serverPct = (totalCpuMs / windowMs) * 100;
  // Jiffies over the window, for the machine, the clients and this process, as % of one core.
  const clientPct = jiffiesPct(clientsEnd - clientsStart, windowMs);
  const othersPct = jiffiesPct(
    machineEnd[0] - machineStart[0] - (clientsEnd - clientsStart) - (selfEnd - selfStart),
    windowMs,
  );
  const expected = args.screens * ticks;
  return {
    config: args.config,
    run: args.run,
    screens: args.screens,
    rows: args.rows,
    rate: args.rate,
    seconds: args.seconds,
    ticks,
    pinned: pinned ? `server CPU ${args.pin!.servers}, clients CPU ${args.pin!.tester}` : 'no',
    machine: {
      loadavg_1m: 0,
      busy_pct_before: 0,
      others_pct_during: round(othersPct, 0),
    },
    emit_cpu_us_per_tick: {
      p50: round(percentile(sortedCpu, 50), 0),
      mean: round(meanCpu, 0),
      p99: round(percentile(sortedCpu, 99), 0),
    },
    emit_wall_ms_per_tick: {
      p50: round(percentile(sortedWall, 50), 2),
      p99: round(percentile(sortedWall, 99), 2),
    },
    emit_cpu_us_per_write: round(meanCpu / args.screens, 2),
    achieved_rate: round(ticks / (windowMs / 1000), 1),
    server_cpu_ms_per_tick: round(totalCpuMs / ticks, 2),
    server_cpu_pct: round(serverPct, 1),
    server_elu: round(eluEnd.utilization, 3),
    server_max_rss_mb: round(maxRssMb, 0),
    payload_bytes: round(received ? results.reduce((n, r) => n + r.payloadBytes, 0) / received : NaN, 0),
    ws_frames_built_per_tick: round(framesBuiltInWindow / ticks, 1),
    wire_bytes_per_frame: round(received ? wireBytes / received : NaN, 0),
    latency_ms: {
      p50: round(percentile(latencies, 50), 2),
      p99: round(percentile(latencies, 99), 2),
      max: round(percentile(latencies, 100), 2),
    },
    frames_expected: expected,
    frames_received: received,
    client_elu: clientElu,
    client_cpu_pct: round(clientPct, 1),
    verified: results.reduce((n, r) => n + r.verified, 0),
    bad: results.reduce((n, r) => n + r.bad, 0),
    valid:
      clientElu.every((e) => e < CLIENT_ELU_LIMIT) &&
      received === expected &&
      results.every((r) => r.bad === 0),
  };
}

// ---------------------------------------------------------------------------------------------
// Client process: bare `ws` screens

/** Reads a msgpack number at `i`: `[value, next index]`, or null for another type. */
function readMsgpackNumber(b: Buffer, i: number): [number, number] | null {
  const t = b[i];
  if (t === undefined) return null;
  if (t < 0x80) return [t, i + 1];
  switch (t) {
    case 0xcc:
      return [b.readUInt8(i + 1), i + 2];
    case 0xcd:
      return [b.readUInt16BE(i + 1), i + 3];
    case 0xce:
      return [b.readUInt32BE(i + 1), i + 5];
    case 0xcf:
      return [Number(b.readBigUInt64BE(i + 1)), i + 9];
    case 0xd3:
      return [Number(b.readBigInt64BE(i + 1)), i + 9];
    case 0xca:
      return [b.readFloatBE(i + 1), i + 5];
    case 0xcb:
      return [b.readDoubleBE(i + 1), i + 9];
    default:
      return null;
  }
}

/**
 * The header of a msgpack `board.frame` packet (`{type: 2, data: ['board.frame', [seq, ts, rows]],
 * nsp}`) without decoding the rows; null for any other packet.
 */
function msgpackFrameHeader(b: Buffer): { seq: number; ts: number } | null {
  let i = 0;
  const map = b[i++] ?? 0;
  if ((map & 0xf0) !== 0x80) return null;
  for (let k = 0; k < (map & 0x0f); k++) {
    const keyTag = b[i] ?? 0;
    if ((keyTag & 0xe0) !== 0xa0) return null;
    const key = b.toString('latin1', i + 1, i + 1 + (keyTag & 0x1f));
    i += 1 + (keyTag & 0x1f);
    if (key === 'data') {
      if (((b[i] ?? 0) & 0xf0) !== 0x90) return null;
      const nameTag = b[i + 1] ?? 0;
      if ((nameTag & 0xe0) !== 0xa0) return null;
      const name = b.toString('latin1', i + 2, i + 2 + (nameTag & 0x1f));
      i += 2 + (nameTag & 0x1f);
      if (name !== 'board.frame' || b[i] !== 0x93) return null;
      const seq = readMsgpackNumber(b, i + 1);
      const ts = seq && readMsgpackNumber(b, seq[1]);
      return seq && ts ? { seq: seq[0], ts: ts[0] } : null;
    }
    // Other keys before `data` hold small values: a fixint (`type`) or a fixstr (`nsp`).
    const tag = b[i] ?? 0;
    if (tag < 0x80) i += 1;
    else if ((tag & 0xe0) === 0xa0) i += 1 + (tag & 0x1f);
    else return null;
  }
  return null;
}

const OLD_PREFIX = Buffer.from('42["teams.updated",', 'latin1');

/**
 * The header of a text packet: a `board.frame` read by the load tester's frame-header.ts, or the old
 * `teams.updated` with its stamp last.
 */
function textFrameHeader(data: Buffer): { seq: number; ts: number } | null {
  const frame = parseFrameHeader(data);
  if (frame) return { seq: frame.seq, ts: frame.committedAt };
  if (
    data.length > OLD_PREFIX.length &&
    data.compare(OLD_PREFIX, 0, OLD_PREFIX.length, 0, OLD_PREFIX.length) === 0
  ) {
    const tail = data.toString('latin1', Math.max(0, data.length - 48));
    const open = tail.lastIndexOf('[');
    const [seq, ts] = tail
      .slice(open + 1, tail.indexOf(']', open))
      .split(',')
      .map(Number);
    return { seq: seq!, ts: ts! };
  }
  return null;
}

/** Decodes a whole frame and checks it against its header: rows, their shape, seq and stamp. */
function verifyFrame(packet: unknown[], header: { seq: number; ts: number }, rows: number): boolean {
  const [event, ...args] = packet;
  if (event === 'board.frame') {
    const [seq, ts, tuples] = args[0] as BoardFrame;
    return (
      seq === header.seq &&
      ts === header.ts &&
      tuples.length === rows &&
      tuples.every((t) => t.length === 7 && typeof t[6] === 'string' && t[2] === 1)
    );
  }
  if (event === 'teams.updated') {
    const [teams, [seq, ts]] = args as [BoardTeam[], [number, number]];
    return (
      seq === header.seq && ts === header.ts && teams.length === rows && teams.every((t) => t.levels_id === 1)
    );
  }
  return false;
}

async function clientMain(args: ClientArgs): Promise<void> {
  const msgpack = args.config === 'd-msgpack';
  const encoder = new msgpackParser.Encoder();
  // The parser's typings say ArrayBuffer; it answers `[Buffer]`, like every Socket.IO encoder.
  const pack = (packet: object) => (encoder.encode(packet) as unknown as Buffer[])[0]!;
  const window = args.to - args.from + 1;
  const latencies = new Float64Array(args.count * window);
  let received = 0;
  let verified = 0;
  let bad = 0;
  let started = false;
  let done = false;
  let payloadBytes = 0;
  let eluStart = performance.eventLoopUtilization();
  let elu = NaN;
  let bytesStart = 0;
  let wireBytes = 0;
  const sockets: WebSocket[] = [];
  const bytesRead = () =>
    sockets.reduce(
      (n, ws) => n + ((ws as unknown as { _socket?: { bytesRead: number } })._socket?.bytesRead ?? 0),
      0,
    );
  const finish = () => {
    if (done) return;
    done = true;
    elu = performance.eventLoopUtilization(eluStart).utilization;
    wireBytes = bytesRead() - bytesStart;
    if (received === latencies.length) process.send!({ kind: 'complete' } satisfies ClientReport);
  };
  /** The window starts with the first measured frame any screen gets. */
  const start = () => {
    started = true;
    eluStart = performance.eventLoopUtilization();
    bytesStart = bytesRead();
  };

  /** One screen; resolves once Socket.IO's CONNECT is answered. */
  const open = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${args.port}/socket.io/?EIO=4&transport=websocket`, {
        perMessageDeflate: args.config === 'c-deflate',
      });
      sockets.push(ws);
      const decoder = msgpack ? new msgpackParser.Decoder() : undefined;
      let decodedPacket: { type: number; data?: unknown } | undefined;
      decoder?.on('decoded', (p: { type: number; data?: unknown }) => (decodedPacket = p));
      const sendAck = (seq: number) => {
        if (!args.ack) return;
        if (msgpack) ws.send(pack({ type: 2, data: ['board.ack', seq], nsp: '/' }));
        else ws.send(`42["board.ack",${seq}]`);
      };
      const onFrame = (header: { seq: number; ts: number }, bytes: number, full: () => unknown[]) => {
        const latency = clockMs() - header.ts;
        if (index === 0) {
          if (verifyFrame(full(), header, args.rows)) verified += 1;
          else bad += 1;
        }
        sendAck(header.seq);
        if (header.seq < args.from || header.seq > args.to) return;
        if (!started) start();
        payloadBytes += bytes;
        latencies[received++] = latency;
        if (received === latencies.length) finish();
      };
      ws.on('error', reject);
      ws.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) {
          const header = msgpackFrameHeader(data);
          if (header) {
            onFrame(header, data.length, () => {
              decoder!.add(data);
              return decodedPacket!.data as unknown[];
            });
            return;
          }
          decoder!.add(data);
          if (decodedPacket?.type === 0) resolve();
          return;
        }
        const header = textFrameHeader(data);
        if (header) {
          onFrame(header, data.length, () => JSON.parse(data.toString('utf8').slice(2)) as unknown[]);
          return;
        }
        const text = data.toString('utf8');
        if (text === '2') ws.send('3');
        else if (text.startsWith('0')) {
          // Engine.IO open: connect to the main namespace.
          if (msgpack) ws.send(pack({ type: 0, nsp: '/' }));
          else ws.send('40');
        } else if (text.startsWith('40')) resolve();
      });
    });

  for (let i = 0; i < args.count; i += CONNECT_CONCURRENCY) {
    const batch = [];
    for (let j = i; j < Math.min(args.count, i + CONNECT_CONCURRENCY); j++) batch.push(open(j));
    await Promise.all(batch);
  }
  process.on('message', (m: ClientCommand) => {
    if (m.kind === 'stop') {
      finish();
      const report: ClientReport = {
        kind: 'result',
        latencies: latencies.subarray(0, received),
        received,
        wireBytes,
        payloadBytes,
        elu,
        verified,
        bad,
      };
      process.send!(report, () => {
        for (const ws of sockets) ws.terminate();
        process.exit(0);
      });
    }
  });
  process.send!({ kind: 'ready' } satisfies ClientReport);
}

// ---------------------------------------------------------------------------------------------
// Main: runs each configuration in a fresh server process, `--runs` times, and summarises

function runServer(args: ServerArgs): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = fork(SELF, ['--role', 'server', '--json', JSON.stringify(args)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: RunResult | undefined;
    child.on('message', (m: RunResult) => (result = m));
    child.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`server process exited (${code})`)),
    );
  });
}

/**
 * The median of each figure over the runs of one configuration (`median` of bench/load/median.ts: the
 * mean of the two middle values for an even count), over the runs where it is a finite number; NaN
 * (null in the JSON) when none is.
 */
function summarise(runs: RunResult[], median: MedianOf) {
  const m = (pick: (r: RunResult) => number) => median(runs.map(pick).filter(Number.isFinite)) ?? NaN;
  return {
    config: runs[0]!.config,
    runs: runs.length,
    valid_runs: runs.filter((r) => r.valid).length,
    emit_cpu_us_per_tick: m((r) => r.emit_cpu_us_per_tick.p50),
    emit_cpu_us_per_write: m((r) => r.emit_cpu_us_per_write),
    emit_wall_ms_p50: m((r) => r.emit_wall_ms_per_tick.p50),
    achieved_rate: m((r) => r.achieved_rate),
    server_cpu_ms_per_tick: m((r) => r.server_cpu_ms_per_tick),
    server_cpu_pct: m((r) => r.server_cpu_pct),
    server_elu: m((r) => r.server_elu),
    server_max_rss_mb: m((r) => r.server_max_rss_mb),
    payload_bytes: m((r) => r.payload_bytes),
    ws_frames_built_per_tick: m((r) => r.ws_frames_built_per_tick),
    delivered_pct: m((r) => (r.frames_received / r.frames_expected) * 100),
    wire_bytes_per_frame: m((r) => r.wire_bytes_per_frame),
    latency_p50_ms: m((r) => r.latency_ms.p50),
    latency_p99_ms: m((r) => r.latency_ms.p99),
    client_elu_max: m((r) => Math.max(...r.client_elu)),
    client_cpu_pct: m((r) => r.client_cpu_pct),
    others_pct_during: m((r) => r.machine.others_pct_during),
    loadavg_1m: m((r) => r.machine.loadavg_1m),
    busy_pct_before: m((r) => r.machine.busy_pct_before),
  };
}

type Summary = ReturnType<typeof summarise>;
type MedianOf = typeof medianOfRuns;

function markdown(
  summaries: Summary[],
  opts: {
    screens: number;
    teams: number;
    rows: number;
    rate: number;
    seconds: number;
    runs: number;
    ack: boolean;
    /** The CPU lists when the runs were pinned. */
    pinned: { servers: string; tester: string } | null;
  },
): string {
  const lines = [
    `N = ${opts.screens} screens in one room, R = ${opts.rows} rows per frame (of ${opts.teams} teams), ${opts.rate} ticks/s, ${opts.seconds} s measured, ` +
      `acks ${opts.ack ? 'on' : 'off'}; median of ${opts.runs} runs; ${opts.pinned ? `server on CPU ${opts.pinned.servers}, clients on CPU ${opts.pinned.tester} (taskset)` : 'not pinned'}.`,
    '',
    '| config | emit CPU/tick (µs) | per write (µs) | ticks/s sent | server CPU/tick (ms) | server CPU (% core) | server ELU | RSS (MB) | payload (B) | wire/frame (B) | ws frames/tick | latency p50 / p99 (ms) | delivered (%) | client ELU (max) | others CPU (% core) | valid runs |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const s of summaries) {
    lines.push(
      `| ${s.config} | ${s.emit_cpu_us_per_tick} | ${s.emit_cpu_us_per_write} | ${s.achieved_rate} | ${s.server_cpu_ms_per_tick} | ${s.server_cpu_pct} | ${s.server_elu} | ${s.server_max_rss_mb} | ${s.payload_bytes} | ${s.wire_bytes_per_frame} | ${s.ws_frames_built_per_tick} | ${s.latency_p50_ms} / ${s.latency_p99_ms} | ${round(s.delivered_pct, 1)} | ${s.client_elu_max} | ${s.others_pct_during} | ${s.valid_runs}/${s.runs} |`,
    );
  }
  return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      role: { type: 'string', default: 'main' },
      json: { type: 'string' },
      screens: { type: 'string', default: '2000' },
      teams: { type: 'string', default: '500' },
      rows: { type: 'string', default: '60' },
      rate: { type: 'string', default: '20' },
      seconds: { type: 'string', default: '10' },
      runs: { type: 'string', default: '3' },
      configs: { type: 'string', default: CONFIGS.join(',') },
      clients: { type: 'string', default: '2' },
      ack: { type: 'string', default: 'off' },
      pin: { type: 'string', default: 'on' },
      'wait-quiet': { type: 'string', default: '120' },
      'max-others': { type: 'string', default: '15' },
      retries: { type: 'string', default: '3' },
      md: { type: 'string' },
    },
  });
  if (values.role === 'client') return clientMain(JSON.parse(values.json!) as ClientArgs);
  if (values.role === 'server') {
    const result = await serverMain(JSON.parse(values.json!) as ServerArgs);
    process.send!(result, () => process.exit(0));
    return;
  }

  const bounded = (name: string, v: string | undefined, max: number) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0 || n > max) throw new Error(`--${name} must be in (0, ${max}]`);
    return n;
  };
  const screens = bounded('screens', values.screens, 5000);
  const teams = bounded('teams', values.teams, 10_000);
  const rows = bounded('rows', values.rows, teams);
  const rate = bounded('rate', values.rate, 100);
  const seconds = bounded('seconds', values.seconds, 60);
  const runs = bounded('runs', values.runs, 10);
  const clients = bounded('clients', values.clients, 2);
  const configs = values.configs!.split(',').map((c) => {
    if (!(CONFIGS as readonly string[]).includes(c))
      throw new Error(`unknown config ${c}; known: ${CONFIGS.join(', ')}`);
    return c as Config;
  });
  const ack = values.ack === 'on';
  const plan = pinPlan(values.pin !== 'off');
  const pin = plan.pinned ? { servers: plan.servers, tester: plan.tester } : null;
  // Only the main process needs these: a static import would also load testkit's environment (and
  // mysql2) into the server and client processes, whose memory and CPU are what is measured.
  const [{ median }, { userPath }] = await Promise.all([
    import('./load/median.js'),
    import('@concurso/testkit/environment'),
  ]);

  const results: RunResult[] = [];
  const maxOthers = Number(values['max-others']);
  const retries = Number(values.retries);
  for (let run = 1; run <= runs; run++) {
    for (const config of configs) {
      // Other work on the machine during the window blurs every figure: such a run is done again.
      for (let attempt = 0; ; attempt++) {
        const busy = await waitForQuiet(Number(values['wait-quiet']), 30, (line) =>
          process.stderr.write(`${line}\n`),
        );
        const loadavg = os.loadavg()[0]!;
        const result = await runServer({
          config,
          run,
          screens,
          teams,
          rows,
          rate,
          seconds,
          ack,
          pin,
          clients,
        });
        result.machine.loadavg_1m = round(loadavg, 2);
        result.machine.busy_pct_before = round(busy, 0);
        const disturbed = result.machine.others_pct_during > maxOthers;
        process.stderr.write(
          `${config} #${run}: emit ${result.emit_cpu_us_per_tick.p50} µs/tick, server ${result.server_cpu_pct} % core, ` +
            `${result.achieved_rate} ticks/s, latency p50 ${result.latency_ms.p50} p99 ${result.latency_ms.p99} ms, ` +
            `client ELU ${result.client_elu.join('/')}, others ${result.machine.others_pct_during} % core` +
            `${result.valid ? '' : ' (INVALID)'}${disturbed ? ' (disturbed)' : ''}\n`,
        );
        if (disturbed && attempt < retries) continue;
        results.push(result);
        break;
      }
    }
  }
  const summaries = configs.map((c) =>
    summarise(
      results.filter((r) => r.config === c),
      median,
    ),
  );
  console.log(JSON.stringify({ summaries, runs: results }, null, 2));
  if (values.md) {
    // Relative to the folder the command was typed in (npm runs the script in bench/).
    writeFileSync(
      userPath(values.md),
      markdown(summaries, { screens, teams, rows, rate, seconds, runs, ack, pinned: pin }),
    );
  }
}

await main();
