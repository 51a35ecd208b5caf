import { TARGETS, nodeBinary } from '../scripts/node-binaries.js';

/**
 * Vitest's global setup of the agent project (vitest.config.ts), run once before any file: unpacks the
 * official Node binaries the agent's builds and the Windows tests use (`nodeBinary`, kept in
 * agent/.cache) when they are not there yet. Test files run side by side, and several of them would
 * otherwise fetch and unpack the same package into the same folder at once on a fresh clone, one
 * reading a binary another is still writing. A failure here is left to the tests that need the binary,
 * which report it.
 */
export default function setup(): void {
  for (const target of TARGETS) {
    try {
      nodeBinary(target);
    } catch {
      // reported by the tests that need it
    }
  }
}
