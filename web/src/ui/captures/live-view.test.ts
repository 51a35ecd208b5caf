import { describe, expect, it } from 'vitest';
import { LiveView, type LiveViewTimers } from './live-view';

/** Timers a test moves by hand: `fire()` runs what is due. */
function manualTimers() {
  const pending = new Map<number, { run: () => void; ms: number }>();
  let next = 1;
  const timers: LiveViewTimers = {
    setTimeout: (run, ms) => {
      pending.set(next, { run, ms });
      return next++;
    },
    clearTimeout: (handle) => void pending.delete(handle as number),
  };
  const fire = () => {
    const due = [...pending.entries()];
    pending.clear();
    due.forEach(([, timer]) => timer.run());
  };
  return { timers, pending, fire };
}

/** A request the test answers by hand, counting how many are in flight at once. */
function manualAsk() {
  const answers: Array<(value: string) => void> = [];
  let inFlight = 0;
  let most = 0;
  let asked = 0;
  const ask = () =>
    new Promise<string>((resolve) => {
      asked += 1;
      inFlight += 1;
      most = Math.max(most, inFlight);
      answers.push((value) => {
        inFlight -= 1;
        resolve(value);
      });
    });
  return {
    ask,
    answer: async (value: string) => {
      answers.shift()!(value);
      await Promise.resolve();
      await Promise.resolve();
    },
    stats: () => ({ asked, most }),
  };
}

describe('«Ver pantalla» and «Ver en vivo» (LiveView)', () => {
  it('asks once, and not again while that request is in flight', async () => {
    const { timers } = manualTimers();
    const { ask, answer, stats } = manualAsk();
    const results: string[] = [];
    const view = new LiveView(
      ask,
      { result: (v) => results.push(v), error: () => {}, busy: () => {} },
      3000,
      timers,
    );
    view.request();
    view.request();
    view.live(true);
    expect(stats()).toEqual({ asked: 1, most: 1 });
    await answer('primera');
    expect(results).toEqual(['primera']);
  });

  it('live: asks again 3 s after each answer, never two at once, and stops when turned off', async () => {
    const { timers, pending, fire } = manualTimers();
    const { ask, answer, stats } = manualAsk();
    const results: string[] = [];
    const view = new LiveView(
      ask,
      { result: (v) => results.push(v), error: () => {}, busy: () => {} },
      3000,
      timers,
    );
    view.live(true);
    await answer('1');
    expect([...pending.values()].map((timer) => timer.ms)).toEqual([3000]);
    fire();
    expect(stats().asked).toBe(2);
    // While the second is in flight, nothing is scheduled and nothing more is asked.
    expect(pending.size).toBe(0);
    view.request();
    expect(stats()).toEqual({ asked: 2, most: 1 });
    await answer('2');
    view.live(false);
    expect(pending.size).toBe(0);
    expect(results).toEqual(['1', '2']);
  });

  it('reports a failure and keeps going live; after dispose nothing is reported', async () => {
    const { timers, fire } = manualTimers();
    const errors: unknown[] = [];
    const results: string[] = [];
    let fail = true;
    const ask = () => (fail ? Promise.reject(new Error('sin máquina')) : Promise.resolve('ok'));
    const view = new LiveView(
      ask,
      { result: (v) => results.push(v), error: (e) => errors.push(e), busy: () => {} },
      3000,
      timers,
    );
    view.live(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).toHaveLength(1);
    fail = false;
    fire();
    view.dispose();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(results).toEqual([]);
  });
});
