/**
 * `npm run bench:captures [-- --grabs 30 --rate 100 --seconds 10]`: what a screen capture costs, (a)
 * and (b) below. Instead, `-- --mode kill [--runs 10] [--executable FILE | --agent-entry FILE]`: how
 * soon a judge sees a kill's «antes» capture (bench/captures-kill.ts); `-- --mode route [--rate 100
 * --seconds 10]`: (b) through `POST /api/agent/capture` against the module's functions
 * (bench/captures-route.ts).
 *
 * (a) The agent's side: on an Xvfb of 1920 × 1080 this bench starts (testkit `startXvfb`), its root
 * window painted with a busy picture (ImageMagick's `plasma:fractal` shown by `xwud`, no large flat areas), `--grabs`
 * captures each timed in two parts: the grab (capture-screen.ts `xwdGrabber`: `xwd -root`, read whole)
 * and the decode + scale + JPEG encode (`decodeGrab` and capture-image.ts `encodeCapture`). Median and
 * p95 ms of each, the CPU this process used per capture (`process.cpuUsage`; `xwd` itself is a child and
 * not counted) and the bytes of the JPEG.
 *
 * (b) The server's cost per stored capture, on the captures module's functions rather than through the
 * route (server/src/modules/captures: capture-image.ts `reencodeCapture`, the sharp decode + re-encode,
 * then capture-files.ts `sha256Of` + `storeCaptureFile` into a temporary folder): `--rate` captures a
 * second for `--seconds`, the JPEGs from (a) as input. The baseline does the same work without the
 * re-encode (the same bytes hashed and written). Each file gets a name of its own so every write is a
 * real write (the server skips an image it already has). Reports the CPU this process used (all its
 * threads: sharp works on libuv's pool) per capture and whether it kept up: the time past the last
 * scheduled start until every capture was stored, and the most captures in flight at once. Prints JSON.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { repoRoot, startXvfb } from '@concurso/testkit';
import { median as medianOf } from './load/median.js';
import { pacedStores } from './paced-stores.js';

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'cost' },
    grabs: { type: 'string', default: '30' },
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '10' },
    runs: { type: 'string', default: '10' },
    executable: { type: 'string' },
    'agent-entry': { type: 'string' },
  },
});
if (values.mode === 'kill') {
  const { killToJudge } = await import('./captures-kill.js');
  console.log(
    JSON.stringify(
      await killToJudge({
        runs: Math.max(1, Number(values.runs)),
        executable: values.executable,
        agentEntry: values['agent-entry'],
      }),
      null,
      2,
    ),
  );
  process.exit(0);
}
if (values.mode === 'route') {
  const { routeCost } = await import('./captures-route.js');
  const rate = Math.max(1, Number(values.rate));
  const seconds = Math.max(1, Number(values.seconds));
  console.log(JSON.stringify(await routeCost({ rate, seconds }), null, 2));
  process.exit(0);
}
const GRABS = Math.max(1, Number(values.grabs));
const RATE = Math.max(1, Number(values.rate));
const SECONDS = Math.max(1, Number(values.seconds));

interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}
type RawGrab = object;
const load = async <T>(...parts: string[]): Promise<T> =>
  (await import(pathToFileURL(path.join(repoRoot, ...parts)).href)) as T;
const screenModule = await load<{
  xwdGrabber: (display?: string) => () => Promise<RawGrab>;
  decodeGrab: (grab: RawGrab) => RgbaImage;
}>('agent', 'src', 'capture-screen.ts');
const imageModule = await load<{
  encodeCapture: (image: RgbaImage) => { jpeg: Buffer; width: number; height: number; quality: number };
}>('agent', 'src', 'capture-image.ts');
const serverImage = await load<{
  reencodeCapture: (bytes: Buffer, mime: 'image/jpeg') => Promise<{ jpeg: Buffer } | null>;
}>('server', 'src', 'modules', 'captures', 'capture-image.ts');
const serverFiles = await load<{
  sha256Of: (bytes: Buffer) => string;
  storeCaptureFile: (dir: string, sha256: string, bytes: Buffer) => Promise<void>;
}>('server', 'src', 'modules', 'captures', 'capture-files.ts');

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;
const round = (value: number) => Math.round(value * 10) / 10;
const run = (command: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', env });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ended ${code}`))));
  });

const work = await mkdtemp(path.join(os.tmpdir(), 'bench-captures-'));
const screen = await startXvfb('1920x1080');
let viewer: ChildProcess | undefined;
try {
  // (a) the agent's side.
  const picture = path.join(work, 'busy.xwd');
  await run('convert', ['-size', '1920x1080', 'plasma:fractal', picture]);
  viewer = spawn('xwud', ['-in', picture, '-noclick', '-geometry', '+0+0', '-display', screen.display], {
    stdio: 'ignore',
  });
  await new Promise((resolve) => setTimeout(resolve, 1500)); // xwud maps its window
  const grab = screenModule.xwdGrabber(screen.display);
  await grab(); // warm-up: the session lookup and the first X connection
  const grabMs: number[] = [];
  const encodeMs: number[] = [];
  const cpuMs: number[] = [];
  const jpegs: Buffer[] = [];
  let size = { width: 0, height: 0, quality: 0 };
  for (let i = 0; i < GRABS; i++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const raw = await grab();
    const t1 = performance.now();
    const encoded = imageModule.encodeCapture(screenModule.decodeGrab(raw));
    const t2 = performance.now();
    const cpu = process.cpuUsage(cpu0);
    grabMs.push(t1 - t0);
    encodeMs.push(t2 - t1);
    cpuMs.push((cpu.user + cpu.system) / 1000);
    jpegs.push(encoded.jpeg);
    size = { width: encoded.width, height: encoded.height, quality: encoded.quality };
  }
  const agent = {
    display: '1920x1080',
    grabs: GRABS,
    grab_ms: { median: round(medianOf(grabMs) ?? 0), p95: round(p95(grabMs)) },
    decode_scale_encode_ms: { median: round(medianOf(encodeMs) ?? 0), p95: round(p95(encodeMs)) },
    own_cpu_ms_per_capture: round(medianOf(cpuMs) ?? 0),
    jpeg: { ...size, bytes: jpegs[0]!.length },
  };

  // (b) the server's side: `RATE` captures a second for `SECONDS`.
  const storeRun = (name: string, store: (bytes: Buffer, i: number, dir: string) => Promise<void>) => {
    const dir = path.join(work, name);
    return pacedStores(RATE, SECONDS, (i) => store(jpegs[i % jpegs.length]!, i, dir));
  };
  const unique = (sha: string, i: number) => serverFiles.sha256Of(Buffer.from(`${sha}-${i}`));
  const reencode = await storeRun('reencode', async (bytes, i, dir) => {
    const again = await serverImage.reencodeCapture(bytes, 'image/jpeg');
    if (!again) throw new Error('not an image');
    await serverFiles.storeCaptureFile(dir, unique(serverFiles.sha256Of(again.jpeg), i), again.jpeg);
  });
  const baseline = await storeRun('baseline', async (bytes, i, dir) => {
    await serverFiles.storeCaptureFile(dir, unique(serverFiles.sha256Of(bytes), i), bytes);
  });
  const sample = await serverImage.reencodeCapture(jpegs[0]!, 'image/jpeg');
  console.log(
    JSON.stringify(
      {
        agent,
        server: {
          rate_per_s: RATE,
          seconds: SECONDS,
          via: 'captures module functions (reencodeCapture + sha256Of + storeCaptureFile), not the route',
          stored_bytes: sample?.jpeg.length,
          reencode,
          baseline_write_only: baseline,
          cores: os.availableParallelism(),
        },
      },
      null,
      2,
    ),
  );
} finally {
  viewer?.kill('SIGKILL');
  screen.stop();
  await rm(work, { recursive: true, force: true });
}
