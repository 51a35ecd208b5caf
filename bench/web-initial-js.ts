/**
 * `npm run bench:web`: the JavaScript a browser downloads to show `/` and `/homeJuez` (issue target:
 * at most 300 KB gzip each). Serves the built web (`npm run build` first) from a real server, loads
 * each page in Debian's Chromium and sums the encoded (gzip, as sent) size of every script response
 * until the page is idle. Prints JSON, in KB (1,000 bytes).
 */
import { USER_TYPES } from '@concurso/shared';
import { createContest, signIn, startWebTestBed } from '@concurso/testkit';

const bed = await startWebTestBed();
const { server, browser } = bed;
try {
  await createContest(server.orm);
  const token = await signIn(server, USER_TYPES.judge, 'juez_peso', 'clave-peso');
  const result: Record<string, { scripts: number; kb_gzip: number }> = {};
  for (const [name, url, signedIn] of [
    ['/', '/', false],
    ['/homeJuez', '/homeJuez', true],
  ] as const) {
    const context = await browser.newContext();
    if (signedIn) await context.addInitScript((t) => localStorage.setItem('token', t), token);
    const page = await context.newPage();
    let bytes = 0;
    let scripts = 0;
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return;
      scripts += 1;
      bytes += (await response.request().sizes()).responseBodySize;
    });
    await page.goto(`${server.url}${url}`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(500);
    result[name] = { scripts, kb_gzip: Math.round(bytes / 100) / 10 };
    await context.close();
  }
  console.log(JSON.stringify({ target_kb_gzip: 300, pages: result }, null, 2));
} finally {
  await bed.close();
}
