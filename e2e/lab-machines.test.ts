import { describe, expect, it } from 'vitest';
import { agentTeam, startContest } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { LabPage } from './pages/lab-page.js';
import { openSignedIn } from './pages/login-page.js';

/**
 * Presence per machine on /laboratorio in Chromium, for an admin: each machine shows the source
 * address of its last request (DIRECCIÓN), and «Quitar» asks first, then removes the machine from the
 * board.
 */
describe('the lab board: address and «Quitar» (presence per machine)', () => {
  const bed = useWebTestBed();

  it('shows where each machine beats from, and removes one after the admin confirms', async () => {
    const { adminToken, contestId } = await startContest(bed.server, 'admin_maquinas');
    const team = await agentTeam(bed.server, adminToken, { contestId, name: 'Equipo Mudanza' });
    for (const [hostname, remoteAddress] of [
      ['lab-queda', '10.0.7.21'],
      ['lab-sobra', '10.0.7.99'],
    ]) {
      const res = await bed.server.app.inject({
        method: 'POST',
        url: '/api/agent/heartbeat',
        payload: { hostname, os: 'linux 6.1.0', version: '1.5.0' },
        headers: { authorization: `Bearer ${team.key}` },
        remoteAddress,
      });
      expect(res.statusCode).toBe(200);
    }

    const { page, context } = await openSignedIn(
      bed.browser,
      bed.server.url,
      'admin_maquinas',
      'clave-admin',
      '/home',
    );
    try {
      const lab = new LabPage(page, bed.server.url);
      await lab.open();
      await lab.row('lab-queda').waitFor();
      expect(await lab.row('lab-queda').textContent()).toContain('10.0.7.21');
      expect(await lab.row('lab-sobra').textContent()).toContain('10.0.7.99');

      await lab.row('lab-sobra').getByRole('button', { name: 'Quitar' }).click();
      const question = page.getByRole('alertdialog');
      await question.getByText('¿Quitar la máquina lab-sobra de Equipo Mudanza?').waitFor();
      await question.getByRole('button', { name: 'Sí, quitar' }).click();
      // While the question closes the page behind it is aria-hidden (no row has a role): the rows are
      // read once the other machine's row is visible again.
      await expect.poll(() => lab.row('lab-queda').count(), { timeout: 10_000 }).toBe(1);
      await expect.poll(() => lab.row('lab-sobra').count(), { timeout: 10_000 }).toBe(0);
      expect(await lab.row('lab-queda').textContent()).toContain('10.0.7.21');
    } finally {
      await context.close();
    }
  });
});
