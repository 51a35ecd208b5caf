import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import type { AppConfig } from '../../server/src/config.js';
import type { TestServer } from './test-server.js';
import { startWebTestBed, type WebTestBed } from './web-test-bed.js';

/**
 * The web test bed of one journey file (`startWebTestBed(overrides)`), started by a `beforeAll` and
 * closed by an `afterAll` that this registers. Call it first in the `describe` body: hooks start in the
 * order they were registered and Vitest runs `afterAll` hooks in reverse (`sequence.hooks: 'stack'`),
 * so the file's own setup finds the bed started and its own teardown (contexts, agents) runs before the
 * bed closes. `server` and `browser` are read inside hooks and tests.
 * @throws on reading `server` or `browser` before the bed started (or after it failed to).
 */
export function useWebTestBed(overrides: Partial<AppConfig> = {}): WebTestBed {
  let bed: WebTestBed | undefined;
  const started = (): WebTestBed => {
    if (!bed) throw new Error('useWebTestBed: the bed is read before its beforeAll started it');
    return bed;
  };
  beforeAll(async () => {
    bed = await startWebTestBed(overrides);
  });
  afterAll(async () => {
    await bed?.close();
  });
  return {
    get server(): TestServer {
      return started().server;
    },
    get browser(): Browser {
      return started().browser;
    },
    close: async () => started().close(),
  };
}
