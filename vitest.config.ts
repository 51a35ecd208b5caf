// One Vitest run for every workspace (`npm test`). Each project names where its tests live.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// What web/vite.config.ts defines for the web's code: the agent's version (agent/package.json).
const agentPackage = JSON.parse(readFileSync(new URL('./agent/package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * The X display the agents of the tests take when a test names none (`AGENT_DISPLAY`): one that does not
 * exist. Left to find one, an agent opens its notices on the first X display of the machine: with files
 * running side by side, another test's Xvfb (covering what that test reads), or a developer's own desktop.
 * Tests that show or capture a screen pass their own display.
 */
const NO_DESKTOP = { AGENT_DISPLAY: ':1999' };

/** The test files (`*.test.ts(x)`) under the folders `dirs` whose text contains `mark`, from the root. */
function testFilesWith(dirs: string[], mark: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.test\.tsx?$/.test(entry.name) && readFileSync(file, 'utf8').includes(mark))
        found.push(path.relative(rootDir, file).split(path.sep).join('/'));
    }
  };
  for (const dir of dirs) walk(path.join(rootDir, dir));
  return found;
}
const rootDir = path.dirname(fileURLToPath(import.meta.url));
/**
 * The web's test files that mock a module (`vi.mock`): they run in a project of their own, isolated,
 * since a worker that keeps modules loaded from one file to the next (`isolate: false`) could hand a
 * later file a module mocked by an earlier one, or the real one to a file that mocks it.
 */
const WEB_MOCKING = testFilesWith(['web/src'], 'vi.mock(');
/**
 * The agent's test files on fake timers (`vi.useFakeTimers`): isolated too, since they count the
 * timers of their process, and in a worker shared with earlier files a timer one of those left running
 * counts among them (4 in a shuffled run; which file leaves it is not known).
 */
const AGENT_FAKE_TIMERS = testFilesWith(['agent/src', 'agent/test'], 'vi.useFakeTimers(');

export default defineConfig({
  test: {
    // Most test files wait (servers, browsers, agents, timers) far more than they compute: on 2 cores
    // Vitest's default (cores - 1 = one file at a time) left the machine idle most of the run. Three
    // files per two cores, at most 8, overlap the waits (two per core starved the heaviest files on a
    // 2-core CI: journeys waited 30 s for a page beside Wine and the agent's executable builds);
    // `--maxWorkers` overrides it. Every project runs in one pool with the same limit, so the browser
    // journeys run beside the rest, not after it.
    maxWorkers: Math.min(8, Math.max(2, Math.floor(1.5 * availableParallelism()))),
    projects: [
      {
        test: {
          name: 'shared',
          // bench/ tests are pure functions of the tools (no server, no database): they fit here.
          include: ['shared/src/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
          // As the web's: a worker keeps zod and the schemas loaded from one file to the next.
          isolate: false,
        },
      },
      {
        define: { __AGENT_VERSION__: JSON.stringify(agentPackage.version) },
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          exclude: WEB_MOCKING,
          environment: 'node',
          // A worker keeps React, TanStack and the schemas loaded from one file to the next instead of
          // importing them again for each of the 71 files: 64 -> 21 s of CPU for web and shared, every
          // test passing in any order (--sequence.shuffle).
          isolate: false,
        },
      },
      {
        define: { __AGENT_VERSION__: JSON.stringify(agentPackage.version) },
        test: {
          // The web's files that mock a module, each in a fresh module graph (`webFilesMocking`).
          name: 'web-mocks',
          include: WEB_MOCKING,
          environment: 'node',
        },
      },
      {
        test: {
          name: 'agent',
          env: NO_DESKTOP,
          include: ['agent/src/**/*.test.ts', 'agent/test/**/*.test.ts'],
          exclude: AGENT_FAKE_TIMERS,
          environment: 'node',
          // As the server's: no file mocks a module, so a worker keeps the agent's modules (and the
          // test kit's server app, which 15 of its files load) from one file to the next: 459 -> 403
          // s of CPU for the project.
          isolate: false,
          globalSetup: ['agent/test/global-setup.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          // The agent's files on fake timers, each in a process of its own (`AGENT_FAKE_TIMERS`).
          name: 'agent-timers',
          env: NO_DESKTOP,
          include: AGENT_FAKE_TIMERS,
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          env: NO_DESKTOP,
          include: ['server/src/**/*.test.ts', 'server/test/**/*.test.ts'],
          environment: 'node',
          // Every file builds its own servers on its own databases and mocks no module, so a worker keeps
          // the app's modules loaded from one file to the next instead of importing them again (about
          // 2 s of CPU per file).
          isolate: false,
          globalSetup: ['testkit/src/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          env: NO_DESKTOP,
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          // As the server project: each journey starts its own server and browser, so a worker keeps the
          // app's modules loaded between journeys.
          isolate: false,
          globalSetup: ['testkit/src/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
