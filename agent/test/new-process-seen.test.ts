/**
 * A new program is seen between polls (agent/src/new-process-watch.ts), with the real agent as root:
 * a copy of sleep under a blocked name of its own (never a real program's name), started ten times at
 * random moments while the agent's poll is a minute away. Each start is ended by the watch's scan (the
 * poll could not have): the assertion is that it ended and was counted, never a duration (speed goes to
 * bench/); the times spawn → exit are printed.
 */
import { describe, expect, it } from 'vitest';
import { procLister } from '../src/proc-lister.js';
import { RESCAN_FOR_MS } from '../src/rescan-burst.js';
import type { ProcessLister } from '../src/scanner.js';
import { useFakeAgentBed } from './helpers/fake-agent-bed.js';
import { blockedBinary, spawnProcess, uniqueName, within } from './helpers/processes.js';

const bed = useFakeAgentBed();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(process.platform === 'linux' && process.getuid?.() === 0)(
  'a new program is seen between polls (real agent, root)',
  () => {
    it('ends each of ten starts at random moments while the poll is a minute away', async () => {
      const name = uniqueName('nuevo-visto');
      const file = await blockedBinary(name);
      const server = await bed.fakeServer([name]);
      const all = procLister();
      // Only this test's own program: the agent runs as root on a machine shared with other tests.
      const lister: ProcessLister = async () => (await all()).filter((p) => p.path === file);
      const { handle } = await bed.agent(server, { lister, push: false, pollMs: 60_000 });
      while (handle.stats.sweeps === 0) await sleep(20); // past the baseline scan
      const times: number[] = [];
      for (let i = 0; i < 10; i++) {
        // Past the fast rescans after the last kill (rescan-burst.ts), at a random moment.
        await sleep(RESCAN_FOR_MS + 100 + Math.random() * 500);
        const started = Date.now();
        const spawned = await spawnProcess(file, ['100']);
        const ended = await within(10_000, spawned.exited, `el inicio ${i + 1} termina`);
        times.push(Date.now() - started);
        expect(ended.signal).not.toBeNull();
      }
      console.log(`new program ended after (ms, spawn → exit): ${times.join(', ')}`);
      // The last kill is counted when its scan ends, just after the process is gone.
      const deadline = Date.now() + 5_000;
      while (handle.stats.killed < 10 && Date.now() < deadline) await sleep(20);
      expect(handle.stats.killed).toBe(10);
      // Ended by the watch's scans: the poll ran once (its first round) in the whole test.
      expect(handle.stats.sweeps).toBeGreaterThanOrEqual(11);
    }, 60_000);
  },
);
