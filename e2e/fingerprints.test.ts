import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LEVELS, type AgentConfig } from '@concurso/shared';
import {
  agentTeam,
  callAs,
  createTeam,
  injectAttempts,
  injectObserved,
  newAttempts,
  observedEntry,
  startContest,
} from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { CatalogPage } from './pages/catalog-page.js';
import { FingerprintsDialog } from './pages/fingerprints-dialog.js';
import { openSignedIn } from './pages/login-page.js';
import { ObservedPage } from './pages/observed-page.js';

/**
 * Fingerprints are claims (docs/design.md section 6a), in Chromium: Procesos › 'Huellas' lists what one
 * team's agent reported for a blocked process (a claim: only that team's machines use it), and the
 * administrator confirms it (every machine then does) and removes it (none does), while /procesosObservados
 * calls the other team's renamed copy «Copia de chrome.exe (huella sin confirmar)», then «Bloqueado como
 * chrome.exe»; and 'Copiar' of a team named like a formula puts it on the clipboard as text.
 */
/** A TLSH digest as the agent sends it (70 hex digits); its first body digit is not 0. */
const BROWSER_TLSH = '09F05A198CC69A5A4F0F9380A9EE93F2B927CF42089EA74276DC5F0BB2D34E68114448';

describe('fingerprints screen and safe exports', () => {
  const bed = useWebTestBed();

  it('lists a reported fingerprint, confirms it for every machine and removes it from all', async () => {
    const { adminToken, contestId } = await startContest(bed.server, 'admin_huellas');
    const reporter = await agentTeam(bed.server, adminToken, {
      contestId,
      name: 'Los Lambdas',
      blocked: ['chrome.exe'],
    });
    const other = await agentTeam(bed.server, adminToken, { contestId, name: 'Recursivos' });
    const sha256 = createHash('sha256').update('navegador renombrado').digest('hex');
    const [attempt] = newAttempts(['chrome.exe']);
    // With the file's similarity digest (docs/design.md section 6a "Similar files").
    expect(
      (await injectAttempts(bed.server.app, reporter.key, [{ ...attempt!, sha256, tlsh: BROWSER_TLSH }]))
        .statusCode,
    ).toBe(200);
    const configHas = async (key: string) =>
      ((await callAs(bed.server.app, key, '/api/agent/config')).body.data as AgentConfig).fingerprints.some(
        (print) => print.sha256 === sha256,
      );
    expect([await configHas(reporter.key), await configHas(other.key)]).toEqual([true, false]);
    // The other team runs the same file renamed: nothing ends it on its machine yet.
    const copy = await injectObserved(bed.server.app, other.key, [observedEntry('notas.exe', sha256)]);
    expect(copy.statusCode, copy.body).toBe(200);
    // And a file one bit pair away from it under a name of its own: the same program for the agents.
    const patched = createHash('sha256').update('navegador parchado').digest('hex');
    const near = await injectObserved(bed.server.app, other.key, [
      {
        ...observedEntry('visor-beta', patched),
        tlsh: `${BROWSER_TLSH.slice(0, 6)}0${BROWSER_TLSH.slice(7)}`,
      },
    ]);
    expect(near.statusCode, near.body).toBe(200);

    const admin = await openSignedIn(bed.browser, bed.server.url, 'admin_huellas', 'clave-admin', '/home');
    try {
      // What ran in the lab, in a tab of its own beside Procesos.
      const observedTab = await admin.context.newPage();
      const observed = new ObservedPage(observedTab, bed.server.url);
      await observed.open();
      await observed
        .row('notas.exe')
        .filter({ hasText: 'Copia de chrome.exe (huella sin confirmar)' })
        .waitFor();
      await admin.page.bringToFront();
      const processes = new CatalogPage(admin.page, bed.server.url);
      await processes.open('/process', 'Información de los procesos');
      const prints = new FingerprintsDialog(admin.page);
      await prints.open(processes.rowWith('chrome.exe'));
      const row = prints.row(sha256);
      await row.filter({ hasText: 'Sin confirmar' }).waitFor();
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells.slice(0, 4)).toEqual([
        'Sin confirmar',
        `${sha256.slice(0, 16)}…`,
        'Solo las del equipo que la reportó',
        '1',
      ]);
      expect(cells[4]).toContain('Los Lambdas');
      await expect(
        prints
          .dialog()
          .getByText('Confirmar o eliminar una huella llega a los agentes', { exact: false })
          .count(),
      ).resolves.toBe(1);

      // «también coincide con» before the confirmation applies: the renamed copy, then the near file.
      await prints.act(sha256, 'Confirmar', 'chrome.exe también coincide con: notas.exe, visor-beta.');
      await row.filter({ hasText: 'Confirmada' }).filter({ hasText: 'Todas las máquinas' }).waitFor();
      expect(await row.getByRole('button', { name: 'Confirmar' }).count()).toBe(0);
      expect([await configHas(reporter.key), await configHas(other.key)]).toEqual([true, true]);
      await observedTab.bringToFront();
      await observed.open();
      await observed.row('notas.exe').filter({ hasText: 'Bloqueado como chrome.exe' }).waitFor();
      await admin.page.bringToFront();

      await prints.act(sha256, 'Eliminar');
      await prints
        .dialog()
        .getByText('Este proceso no tiene huellas reportadas en el concurso activo.')
        .waitFor();
      expect([await configHas(reporter.key), await configHas(other.key)]).toEqual([false, false]);
      // docs/design.md section 6a: the removed hash stays denied under every name until confirmed again.
      await prints
        .dialog()
        .getByTestId('denied-fingerprints')
        .locator('tbody tr')
        .filter({ hasText: sha256.slice(0, 16) })
        .filter({ hasText: 'Denegada' })
        .waitFor();
      await prints.close();
    } finally {
      await admin.context.close();
    }
  });

  it("copies a team named like a formula as text: the clipboard line starts with '", async () => {
    const { contestId } = await startContest(bed.server, 'admin_copiar');
    const formula = '=HYPERLINK("http://example.com","clic")';
    const team = await createTeam(bed.server.orm, contestId, LEVELS.basico, formula);
    const admin = await openSignedIn(bed.browser, bed.server.url, 'admin_copiar', 'clave-admin', '/home', {
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    try {
      const teams = new CatalogPage(admin.page, bed.server.url);
      await teams.open('/teams', 'Información de los equipos');
      // The team is in a contest that is not the active one: /teams shows the active one first.
      await admin.page
        .getByTestId('teams-contest-filter')
        .getByLabel('Concurso')
        .selectOption({ label: 'Todos los concursos' });
      await teams.row(team.id).waitFor();
      await teams.table().getByRole('button', { name: 'Copiar' }).click();
      await admin.page.getByText('Copiado al portapapeles', { exact: false }).waitFor();
      const copied = await admin.page.evaluate(() => navigator.clipboard.readText());
      const line = copied.split('\n').find((text) => text.includes('HYPERLINK'));
      expect(line).toBeDefined();
      expect(line!.split('\t')).toContain(`'${formula}`);
      expect(copied).not.toMatch(/(^|\t)=HYPERLINK/m);
    } finally {
      await admin.context.close();
    }
  });
});
