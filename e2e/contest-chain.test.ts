import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { CHAIN_VERIFY_BUTTON, LEVELS } from '@concurso/shared';
import { agentTeam, createContest, sendAttempt, signInStaff } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { openSignedIn } from './pages/login-page.js';

/**
 * /bitacora's «Verificar la cadena» in Chromium (server/src/modules/chain/README.md): a judge presses
 * it and reads «Cadena íntegra: N registros»; after an attempt's process is changed straight in the
 * database, the same button names the first bad row in Spanish.
 */
describe('contest chain in Chromium', () => {
  const bed = useWebTestBed();
  let context: BrowserContext;
  let page: Page;

  /** Presses the button and answers the verdict's text once a new one is shown. */
  async function verifyOnScreen(): Promise<string> {
    const verdict = page.getByTestId('chain-verdict');
    const before = (await verdict.count()) > 0 ? await verdict.textContent() : null;
    await page.getByRole('button', { name: CHAIN_VERIFY_BUTTON }).click();
    await expect
      .poll(async () => (await verdict.count()) > 0 && (await verdict.textContent()) !== before)
      .toBe(true);
    return (await verdict.textContent())!.trim();
  }

  beforeAll(async () => {
    const { admin } = await signInStaff(bed.server, 'cadena');
    const contestId = (await createContest(bed.server.orm, '2026-11-21', { active: true })).id;
    const team = await agentTeam(bed.server, admin, {
      contestId,
      levelsId: LEVELS.basico,
      blocked: ['Discord.exe'],
    });
    // Through the real agent route over HTTP.
    for (let i = 0; i < 3; i++)
      expect((await sendAttempt(bed.server.url, team.key, 'Discord.exe')).status).toBe(200);
    ({ page, context } = await openSignedIn(
      bed.browser,
      bed.server.url,
      'juez_cadena',
      'clave-juez',
      '/homeJuez',
    ));
    await page.goto(`${bed.server.url}/bitacora`);
    await page.getByRole('heading', { name: 'Bitácora del concurso' }).waitFor();
  });

  afterAll(async () => {
    await context?.close();
  });

  it('says the chain is whole, then names the attempt changed behind the server', async () => {
    expect(await verifyOnScreen()).toBe('Cadena íntegra: 3 registros');
    const [second] = await bed.server.orm.em
      .fork()
      .execute<Array<{ ref_id: number }>>('select ref_id from contest_chain where seq = 2');
    await bed.server.orm.em
      .fork()
      .execute("update attempts set process = 'x' where id = ?", [second!.ref_id]);
    expect(await verifyOnScreen()).toBe(
      `La cadena se rompe en el registro 2 (intento ${second!.ref_id}): su contenido no coincide`,
    );
  });
});
