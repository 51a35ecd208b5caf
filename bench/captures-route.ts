/**
 * `npm run bench:captures -- --mode route [--rate 100 --seconds 10]`: the server's cost per stored
 * capture through its route, `POST /api/agent/capture` (server/src/modules/captures), against the
 * same work on the module's functions (`reencodeCapture`, then `sha256Of` + `storeCaptureFile`) in
 * the same process, on the same JPEGs. A server on a throwaway database in this process (testkit
 * `startTestServer`, requests through `app.inject`: Fastify's routing, the agent key, the per-minute
 * limiter, the body's schema, sharp, the file, the row and the chain link, but no socket), `--rate`
 * captures a second for `--seconds`, spread over enough teams (each with its key and its stored
 * attempts, an «antes» and a «despues» each) that none passes `CAPTURE_LIMITS.perMinute`. The JPEGs
 * are 1280 × 720 pictures of ImageMagick's `plasma:fractal` (no large flat areas), base64-encoded
 * before the clock starts. Reports for each way the CPU of this process (all its threads: sharp works
 * on libuv's pool) per capture, whether it kept up (time past the last scheduled start until every
 * capture was stored, most in flight at once) and, for the route, each answer's ms (median/p95) and
 * statuses. The route's figure includes `app.inject`'s own cost (small next to the body's JSON parse).
 * Answers the figures as one object.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { CAPTURE_LIMITS } from '@concurso/shared';
import {
  agentTeam,
  injectAttempts,
  newAttempts,
  repoRoot,
  startContest,
  startTestServer,
} from '@concurso/testkit';
import { median as medianOf } from './load/median.js';
import { pacedStores } from './paced-stores.js';

/** What `routeCost` runs. */
export interface RouteCostOptions {
  /** Captures a second. */
  rate: number;
  /** For how long (s). */
  seconds: number;
}

const round = (value: number) => Math.round(value * 10) / 10;
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;
/** Different pictures sent in turn. */
const PICTURES = 5;

const run = (command: string, args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ended ${code}`))));
  });

/** Runs the measurement (see the file's comment) and answers its figures. */
export async function routeCost(options: RouteCostOptions): Promise<object> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'bench-captures-route-'));
  const server = await startTestServer();
  try {
    const serverImage = (await import(
      pathToFileURL(path.join(repoRoot, 'server/src/modules/captures/capture-image.ts')).href
    )) as { reencodeCapture: (bytes: Buffer, mime: 'image/jpeg') => Promise<{ jpeg: Buffer } | null> };
    const serverFiles = (await import(
      pathToFileURL(path.join(repoRoot, 'server/src/modules/captures/capture-files.ts')).href
    )) as {
      sha256Of: (bytes: Buffer) => string;
      storeCaptureFile: (dir: string, sha256: string, bytes: Buffer) => Promise<void>;
    };
    const jpegs: Buffer[] = [];
    for (let i = 0; i < PICTURES; i++) {
      const file = path.join(work, `busy-${i}.jpg`);
      await run('convert', [
        '-seed',
        String(i + 1),
        '-size',
        '1280x720',
        'plasma:fractal',
        '-quality',
        '70',
        file,
      ]);
      jpegs.push(await readFile(file));
    }
    const images = jpegs.map((jpeg) => jpeg.toString('base64'));

    // Teams enough that none passes its per-minute limit: each key sends at most 80 % of it.
    const total = options.rate * options.seconds;
    const perKey = Math.floor(CAPTURE_LIMITS.perMinute * 0.8);
    const teams = Math.ceil(total / perKey);
    const { adminToken, contestId } = await startContest(server, 'bench_capturas_ruta');
    const keys: string[] = [];
    const events: string[][] = [];
    for (let t = 0; t < teams; t++) {
      const team = await agentTeam(server, adminToken, {
        contestId,
        name: `Banco ${t + 1}`,
        ...(t === 0 ? { blocked: ['prohibido'] } : {}),
      });
      const attempts = newAttempts(Array.from({ length: Math.ceil(perKey / 2) }, () => 'prohibido'));
      const res = await injectAttempts(server.app, team.key, attempts);
      if (res.statusCode !== 200) throw new Error(`attempts: ${res.statusCode} ${res.body}`);
      keys.push(team.key);
      events.push(attempts.map((a) => a.event_id));
    }

    const answerMs: number[] = [];
    const statuses = new Map<number, number>();
    /** The first answer's body of each status (a refusal's reason). */
    const answers = new Map<number, string>();
    const route = await pacedStores(options.rate, options.seconds, async (i) => {
      const team = i % teams;
      const nth = Math.floor(i / teams);
      const started = performance.now();
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/agent/capture',
        headers: { authorization: `Bearer ${keys[team]}` },
        payload: {
          event_id: events[team]![Math.floor(nth / 2)],
          moment: nth % 2 === 0 ? 'antes' : 'despues',
          taken_at: new Date().toISOString(),
          hostname: `maquina-${team + 1}`,
          mime: 'image/jpeg',
          image: images[i % images.length],
        },
      });
      answerMs.push(performance.now() - started);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (!answers.has(res.statusCode)) answers.set(res.statusCode, res.body.slice(0, 200));
      if (res.statusCode !== 204) throw new Error(`${res.statusCode} ${res.body}`);
    });
    const dir = path.join(work, 'modulo');
    const unique = (sha: string, i: number) => serverFiles.sha256Of(Buffer.from(`${sha}-${i}`));
    const functions = await pacedStores(options.rate, options.seconds, async (i) => {
      const again = await serverImage.reencodeCapture(jpegs[i % jpegs.length]!, 'image/jpeg');
      if (!again) throw new Error('not an image');
      await serverFiles.storeCaptureFile(dir, unique(serverFiles.sha256Of(again.jpeg), i), again.jpeg);
    });
    return {
      rate_per_s: options.rate,
      seconds: options.seconds,
      teams,
      jpeg_bytes: jpegs.map((jpeg) => jpeg.length),
      route: {
        via: 'POST /api/agent/capture (app.inject)',
        ...route,
        answer_ms: { median: round(medianOf(answerMs) ?? 0), p95: round(p95(answerMs)) },
        statuses: Object.fromEntries(statuses),
        first_answer_of_each_status: Object.fromEntries(answers),
      },
      module_functions: { via: 'reencodeCapture + sha256Of + storeCaptureFile', ...functions },
      cores: os.availableParallelism(),
      load_average_1m: round(os.loadavg()[0]!),
    };
  } finally {
    server.app.server.closeAllConnections();
    await server.close();
    await rm(work, { recursive: true, force: true });
  }
}
