import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { TARGETS, nodeBinary } from '../scripts/node-binaries.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder of this test run of the agent project, removed after it (helpers/agent-build.ts, helpers/wine.ts). */
    agentTestRunDir: string;
  }
}

/**
 * Vitest's global setup of the agent project (vitest.config.ts), run once before any file: unpacks the
 * official Node binaries the agent's builds and the Windows tests use (`nodeBinary`, kept in
 * agent/.cache) when they are not there yet. Test files run side by side, and several of them would
 * otherwise fetch and unpack the same package into the same folder at once on a fresh clone, one
 * reading a binary another is still writing. A failure here is left to the tests that need the binary,
 * which report it. Then makes the run's own folder (`agentTestRunDir`: the shared build of the single
 * executables, helpers/agent-build.ts, and the template Wine prefix, helpers/wine.ts), removed when the
 * run ends.
 */
export default function setup(project: TestProject): () => void {
  for (const target of TARGETS) {
    try {
      nodeBinary(target);
    } catch {
      // reported by the tests that need it
    }
  }
  const runDir = mkdtempSync(path.join(tmpdir(), 'agent-tests-'));
  project.provide('agentTestRunDir', runDir);
  return () => rmSync(runDir, { recursive: true, force: true });
}
