// `npm run test:unit`: the inner loop, under a minute on 2 cores. The shared, web and bench tests and
// the agent's tests that start no agent, Wine, X display, network namespace, server or database (a
// few start a copy of `sleep` to find or end); `npm test` runs everything, these included.
import { defineConfig } from 'vitest/config';
import full from './vitest.config.js';

/** Agent test files (agent/test/) that run the agent's code in the test's own process. */
const AGENT_UNIT_TESTS = [
  'backoff',
  'cli-args',
  'client',
  'delivery',
  'dns-forwarder',
  'family',
  'fingerprint',
  'key-file',
  'killer',
  'matcher',
  'name-filter',
  'name-filter-parsers',
  'network-guard',
  'nftables',
  'observed',
  'outbox',
  'program-of',
  'refusals',
  'scanner',
  'windows-acl',
  'windows-firewall',
  'windows-lister',
].map((name) => `agent/test/${name}.test.ts`);

type Project = { test: { name: string; include?: string[]; globalSetup?: string[] } };

const projects = (full.test?.projects ?? []) as Project[];

export default defineConfig({
  test: {
    ...full.test,
    projects: projects
      // agent-timers: the agent's files on fake timers (vitest.config.ts), all of them unit tests.
      .filter((project) =>
        ['shared', 'web', 'web-mocks', 'agent', 'agent-timers'].includes(project.test.name),
      )
      .map((project) =>
        // Without the agent's global setup: none of these uses the Node binaries it unpacks.
        project.test.name === 'agent'
          ? { ...project, test: { ...project.test, include: AGENT_UNIT_TESTS, globalSetup: [] } }
          : project,
      ),
  },
});
