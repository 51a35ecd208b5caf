import type { Browser } from 'playwright-core';
import type { AppConfig } from '../../server/src/config.js';
import { launchChromium } from './browser.js';
import { WEB_DIST_DIR, startTestServer, type RestartOptions, type TestServer } from './test-server.js';

/** What a browser journey (or a measurement in Chromium) runs against. */
export interface WebTestBed {
  /** An in-process test server serving the built web (web/dist) on its own throwaway database. */
  server: TestServer;
  /** Debian's Chromium, headless (`launchChromium`). */
  browser: Browser;
  /** Closes the browser (every context left open with it), then the server (dropping its database). */
  close(): Promise<void>;
}

/**
 * The built web the journeys serve: `E2E_WEB_DIST` when set (a build of one's own, e.g.
 * `npx vite build web --outDir <dir>`, so parallel work never rebuilds the folder a running journey
 * serves), else web/dist.
 */
export function testWebDistDir(): string {
  return process.env.E2E_WEB_DIST || WEB_DIST_DIR;
}

/**
 * Starts a test server serving the built web (`npm run build` first) with `overrides` on its
 * configuration (and `restart`'s options, e.g. its `host`), and Chromium: the start of every browser journey.
 * @throws when the server or the browser does not start (whichever started is closed first).
 */
export async function startWebTestBed(
  overrides: Partial<AppConfig> = {},
  restart: RestartOptions = {},
): Promise<WebTestBed> {
  const server = await startTestServer({ webDistDir: testWebDistDir(), ...overrides }, restart);
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (err) {
    await server.close();
    throw err;
  }
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
