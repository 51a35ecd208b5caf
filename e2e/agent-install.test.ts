import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import { createContest, createTeam, createUser } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { CatalogPage } from './pages/catalog-page.js';
import { LoginPage } from './pages/login-page.js';
import { TeamsPage } from './pages/teams-page.js';

const ADMIN = { username: 'admin_instala', password: 'clave-admin-1' };
const PUBLIC_URL = 'http://10.9.8.7:3000';

/**
 * A server with `PUBLIC_URL`: the key dialog's install commands carry that address, not the admin's
 * browser address (127.0.0.1 here), and no warning shows (the warning for a local address, and the
 * address typed by hand, are walked in admin-console.test.ts).
 */
describe('the key dialog of a server with PUBLIC_URL, in Chromium', () => {
  const bed = useWebTestBed({ publicUrl: PUBLIC_URL });
  let page: Page;
  let catalog: CatalogPage;
  let teamId: number;

  beforeAll(async () => {
    await createUser(bed.server.orm, USER_TYPES.admin, ADMIN.username, ADMIN.password);
    const contest = await createContest(bed.server.orm);
    teamId = (await createTeam(bed.server.orm, contest.id, LEVELS.basico, 'Los Instalados')).id;
    page = await (await bed.browser.newContext()).newPage();
    catalog = new CatalogPage(page, bed.server.url);
    const login = new LoginPage(page, bed.server.url);
    await login.open();
    await login.signIn(ADMIN.username, ADMIN.password);
    await page.waitForURL(`${bed.server.url}/home`);
  });

  it('offers PUBLIC_URL as the server address, with no warning, in every command', async () => {
    const teams = new TeamsPage(page, catalog);
    await teams.open();
    const { key, command, windows, linux, dialog } = await teams.generateAgentKey(catalog.row(teamId));
    expect(bed.server.url).not.toContain('10.9.8.7');
    expect(await dialog.getByTestId('agent-server').inputValue()).toBe(PUBLIC_URL);
    await dialog.getByText('Por omisión, la de PUBLIC_URL del servidor.').waitFor();
    expect(await dialog.getByTestId('agent-server-local').count()).toBe(0);
    expect(linux).toContain(
      `'ExecStart=/usr/local/bin/concurso-agent --server ${PUBLIC_URL} --key-file /etc/concurso-agent/clave'`,
    );
    expect(windows).toContain(`<Arguments>--server ${PUBLIC_URL} --key-file `);
    expect(command).toContain(`--server ${PUBLIC_URL} --key-file `);
    for (const text of [linux, windows, command]) expect(text).not.toContain(bed.server.url);
    expect(linux).toContain(`'${key}'`);
  });
});
