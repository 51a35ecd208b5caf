import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_TYPES } from '@concurso/shared';
import {
  agentTeam,
  callAs,
  createContest,
  createLabNetwork,
  createUser,
  signIn,
  startWebTestBed,
  type LabNetwork,
  type WebTestBed,
} from '@concurso/testkit';
import { labKeyFile, startLabAgent } from '../agent/test/helpers/lab-agent.js';
import { cleanUp, tempDir } from '../agent/test/helpers/processes.js';
import { CatalogPage } from './pages/catalog-page.js';
import { ContestsPage } from './pages/contests-page.js';
import { LabPage } from './pages/lab-page.js';
import { openSignedIn } from './pages/login-page.js';

/**
 * The network policy (docs/design.md section 6a) in Chromium: an admin writes the active contest's allowed
 * sites in «Sitios permitidos» (the contests table's own dialog) and saves; the real agent, running as root
 * in a lab network namespace (testkit's `createLabNetwork`, never this machine's own), puts them in force
 * (the forbidden site no longer answers there), and /laboratorio shows «red: v1 aplicada» for its machine;
 * with a name the lab's DNS does not know, «red: v2 aplicada en parte: no se resolvió …» in amber.
 */
describe('allowed sites from the browser to the lab machine', () => {
  let net: LabNetwork;
  let bed: WebTestBed;
  let agent: ChildProcess | undefined;

  beforeAll(async () => {
    net = await createLabNetwork();
    // Chromium and the lab's agent both reach the server on this machine's side of the lab's link.
    bed = await startWebTestBed({}, { host: net.serverAddress });
  }, 60_000);

  afterAll(async () => {
    agent?.kill('SIGKILL');
    await cleanUp();
    bed?.server.app.server.closeAllConnections();
    await bed?.close();
    await net?.close();
  }, 60_000);

  it('saves the list in the dialog, and the machine has v1 in force', async () => {
    const contest = await createContest(bed.server.orm);
    await createUser(bed.server.orm, USER_TYPES.admin, 'admin_red', 'clave-admin');
    const adminToken = await signIn(bed.server, USER_TYPES.admin, 'admin_red_api', 'clave-admin');
    const team = await agentTeam(bed.server, adminToken, { contestId: contest.id, name: 'Equipo Vigilado' });
    agent = startLabAgent(net, {
      server: bed.server.url,
      keyFile: await labKeyFile(team.key, 'e2e-network-key-'),
      dataDir: await tempDir('e2e-network-data-'),
    }).child;
    await expect
      .poll(
        async () => (await callAs(bed.server.app, adminToken, '/api/labMachines')).body.data.machines.length,
        {
          timeout: 15_000,
        },
      )
      .toBe(1);
    expect(await net.fetchFromLab(`http://${net.forbiddenAddress}/`)).toBe('ok prohibido');

    const { page } = await openSignedIn(bed.browser, bed.server.url, 'admin_red', 'clave-admin', '/home');
    const catalog = new CatalogPage(page, bed.server.url);
    await new ContestsPage(page, catalog).open();
    await catalog.row(contest.id).getByRole('button', { name: 'Sitios permitidos' }).click();
    const dialog = page.getByTestId('allowed-sites-dialog');
    await dialog.waitFor();
    expect(await dialog.getByTestId('network-version').textContent()).toBe('Sin política de red');
    expect(await dialog.textContent()).toContain(
      'Siempre están permitidos el servidor del concurso y los servidores DNS de cada máquina.',
    );
    const sites = dialog.getByLabel('Sitios permitidos');
    // A URL is refused under its line, in Spanish, before anything is sent (docs/spec.md section 5's warning).
    await sites.fill('https://permitido.prueba/');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    const warning = catalog.messageDialog('Información');
    await warning.getByText('Por favor llene todos los campos correctamente').waitFor();
    await catalog.dismiss(warning);
    await dialog.getByText('Línea 1: Escriba solo el nombre del sitio, sin http:// ni la ruta').waitFor();

    await sites.fill('permitido.prueba');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    // In force on the machine: the forbidden site no longer answers there, the allowed one does.
    await expect
      .poll(() => net.fetchFromLab(`http://${net.forbiddenAddress}/`), { timeout: 10_000 })
      .toMatch(/^error /);
    expect(await net.fetchFromLab('http://permitido.prueba/')).toBe('ok permitido');

    const lab = new LabPage(page, bed.server.url);
    await lab.open();
    await expect
      .poll(() => lab.network('Equipo Vigilado').textContent(), { timeout: 10_000 })
      // The Linux agent filters the listed name by the name itself (agent/README.md, «Sitios permitidos»).
      .toBe('red: v1 aplicada (filtro por nombre)');
    expect(await lab.network('Equipo Vigilado').getAttribute('data-network-tone')).toBe('ok');

    // A name the lab's DNS does not know: in force without it, and said in amber, not «aplicada».
    await new ContestsPage(page, catalog).open();
    await catalog.row(contest.id).getByRole('button', { name: 'Sitios permitidos' }).click();
    await dialog.waitFor();
    await sites.fill('permitido.prueba\nno-existe.prueba');
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await lab.open();
    await expect
      .poll(() => lab.network('Equipo Vigilado').textContent(), { timeout: 25_000 })
      .toBe('red: v2 aplicada en parte: no se resolvió no-existe.prueba');
    expect(await lab.network('Equipo Vigilado').getAttribute('data-network-tone')).toBe('warning');
    expect(await net.fetchFromLab('http://permitido.prueba/')).toBe('ok permitido');
  }, 120_000);
});
