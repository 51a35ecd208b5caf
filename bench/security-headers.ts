/**
 * `npm run bench:headers [-- --requests 20000 --rounds 3]`: what the security headers cost per answer
 * (nothing per request that can be done once). Three Fastify apps with one JSON route, each
 * answering `--requests` injected requests per round: `none` (no headers: the harness's own cost, the
 * baseline doing the same work), `fastify-helmet` (@fastify/helmet 13 with the product's options: how the
 * server once did it, helmet's middleware built again for every request) and `product` (the
 * server's `plugins/security-headers.ts`: helmet's headers computed once). Reports, per app, the median
 * over the rounds of this process's CPU time per request (µs) and of the wall time per request, and the
 * headers written, so the three can be compared: the headers' own cost is an app's figure minus `none`'s.
 * Everything runs in this one process, on one core, in turn (apps interleaved per round).
 */
import { parseArgs } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import { HELMET_OPTIONS, securityHeaders } from '@concurso/testkit/server-plugins';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
  },
});
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const KINDS = ['none', 'fastify-helmet', 'product'] as const;
type Kind = (typeof KINDS)[number];

async function build(kind: Kind): Promise<FastifyInstance> {
  const app = Fastify();
  if (kind === 'fastify-helmet')
    await app.register(fastifyHelmet, HELMET_OPTIONS as Parameters<typeof fastifyHelmet>[1]);
  if (kind === 'product') await app.register(securityHeaders);
  app.get('/api/health', async () => ({ success: true, data: { status: 'ok' } }));
  await app.ready();
  return app;
}

/** One round: CPU and wall time per request (µs). */
async function round(app: FastifyInstance): Promise<{ cpu: number; wall: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < REQUESTS; i++) await app.inject({ url: '/api/health' });
  const cpu = process.cpuUsage(cpu0);
  return { cpu: (cpu.user + cpu.system) / REQUESTS, wall: ((performance.now() - t0) * 1000) / REQUESTS };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const apps = new Map<Kind, FastifyInstance>();
for (const kind of KINDS) {
  const app = await build(kind);
  for (let i = 0; i < 2_000; i++) await app.inject({ url: '/api/health' }); // warm-up (JIT)
  apps.set(kind, app);
}
const samples = new Map<Kind, Array<{ cpu: number; wall: number }>>(KINDS.map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++)
  for (const kind of KINDS) samples.get(kind)!.push(await round(apps.get(kind)!));
const report: Record<string, unknown> = { requests: REQUESTS, rounds: ROUNDS };
const written = new Map<Kind, string>();
for (const kind of KINDS) {
  const answer = await apps.get(kind)!.inject({ url: '/api/health' });
  const headers = Object.entries(answer.headers)
    .filter(
      ([name]) => !['content-type', 'content-length', 'date', 'connection', 'keep-alive'].includes(name),
    )
    .sort(([a], [b]) => a.localeCompare(b));
  written.set(kind, JSON.stringify(headers));
  report[kind] = {
    cpu_us_per_request: +median(samples.get(kind)!.map((s) => s.cpu)).toFixed(1),
    wall_us_per_request: +median(samples.get(kind)!.map((s) => s.wall)).toFixed(1),
    headers: headers.length,
  };
  await apps.get(kind)!.close();
}
// The same work: both write the same headers, byte for byte.
report.same_headers = written.get('fastify-helmet') === written.get('product');
console.log(JSON.stringify(report, null, 2));
