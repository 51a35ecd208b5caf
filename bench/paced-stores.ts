/**
 * One measured run of stores at a steady rate, for bench:captures' two server measurements (the
 * module's functions, captures.ts, and the route, captures-route.ts): each store starts on its schedule
 * whatever the others' progress, as uploads arrive.
 */
import { performance } from 'node:perf_hooks';

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Runs `store` for `0 … rate × seconds - 1`, each started at `i / rate` s. Answers this process's CPU
 * per store (ms) and share of one core (%), the wall time (s), how long the last ones took past the
 * last start (ms), the most in flight, the failures, and whether it kept up (no failure, done within
 * 1 s of the last start, every start on time within 0.5 s).
 */
export async function pacedStores(rate: number, seconds: number, store: (i: number) => Promise<void>) {
  const total = rate * seconds;
  let inFlight = 0;
  let mostInFlight = 0;
  let failed = 0;
  const pending: Array<Promise<void>> = [];
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    pending.push(
      store(i)
        .catch(() => void failed++)
        .finally(() => void inFlight--),
    );
  }
  const lastStart = performance.now();
  await Promise.all(pending);
  const end = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const pastLastStartMs = end - lastStart;
  return {
    captures: total,
    failed,
    wall_s: round((end - start) / 1000),
    own_cpu_ms_per_capture: round((cpu.user + cpu.system) / 1000 / total),
    own_cpu_pct: round(((cpu.user + cpu.system) / 1000 / (end - start)) * 100),
    done_ms_after_last_start: round(pastLastStartMs),
    most_in_flight: mostInFlight,
    kept_up: failed === 0 && pastLastStartMs < 1000 && lastStart - start < seconds * 1000 + 500,
  };
}
