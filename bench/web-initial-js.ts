/**
 * `npm run bench:web`: the JavaScript a browser downloads to show `/` and `/homeJuez` (target:
 * at most 300 KB gzip each). Serves the built web (`npm run build` first) from a real server, loads
 * each page in Debian's Chromium (1280x720) and sums the encoded (gzip, as sent) size of every script
 * response until the page is idle. Prints JSON, in KB (1,000 bytes).
 *
 * The contest has 30 teams (10 per level, the demo's size), so /homeJuez is a real board and the
 * "Estadísticas" panel sits under it. Its charts (recharts) load only when the panel comes into view,
 * so they are measured apart: `after_scroll` is what scrolling to the panel downloads on
 * top of the initial scripts.
 */
import type { Page } from 'playwright-core';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import { createContest, createTeam, signIn, startWebTestBed } from '@concurso/testkit';

/** Counts the script responses of `page` from now on: `{ scripts, bytes }` (encoded body bytes). */
function countScripts(page: Page): { scripts: number; bytes: number } {
  const seen = { scripts: 0, bytes: 0 };
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    seen.scripts += 1;
    seen.bytes += (await response.request().sizes()).responseBodySize;
  });
  return seen;
}

const kb = (bytes: number) => Math.round(bytes / 100) / 10;

const bed = await startWebTestBed();
const { server, browser } = bed;
try {
  const contest = await createContest(server.orm);
  for (const level of [LEVELS.basico, LEVELS.intermedio, LEVELS.avanzado]) {
    for (let i = 1; i <= 10; i++) await createTeam(server.orm, contest.id, level, `Equipo ${level}-${i}`);
  }
  const token = await signIn(server, USER_TYPES.judge, 'juez_peso', 'clave-peso');
  const result: Record<
    string,
    { scripts: number; kb_gzip: number; after_scroll?: { scripts: number; kb_gzip: number } }
  > = {};
  for (const [name, url, signedIn] of [
    ['/', '/', false],
    ['/homeJuez', '/homeJuez', true],
  ] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    if (signedIn) await context.addInitScript((t) => localStorage.setItem('token', t), token);
    const page = await context.newPage();
    const initial = countScripts(page);
    await page.goto(`${server.url}${url}`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(500);
    result[name] = { scripts: initial.scripts, kb_gzip: kb(initial.bytes) };
    if (signedIn) {
      const before = { ...initial };
      await page.getByTestId('stats-panel').scrollIntoViewIfNeeded();
      await page.getByTestId('stats-charts').waitFor({ timeout: 10_000 });
      await page.waitForLoadState('networkidle');
      result[name].after_scroll = {
        scripts: initial.scripts - before.scripts,
        kb_gzip: kb(initial.bytes - before.bytes),
      };
    }
    await context.close();
  }
  console.log(JSON.stringify({ target_kb_gzip: 300, pages: result }, null, 2));
} finally {
  await bed.close();
}
