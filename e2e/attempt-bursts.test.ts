import { describe, expect, it } from 'vitest';
import { USER_TYPES } from '@concurso/shared';
import { agentTeam, createUser, sendAttempt, startContest } from '@concurso/testkit';
import { useWebTestBed } from '@concurso/testkit/web-test-bed-hooks';
import { HistoryPage } from './pages/history-page.js';
import { openSignedIn } from './pages/login-page.js';

/**
 * A restart loop as the judges read it, in Chromium against the real server and database: a team's
 * agent reports four starts of one blocked program within a second; the team's 'Historial' lists each
 * attempt and marks the run once, «4 intentos en 1 s», on its newest row.
 */
describe('a burst of attempts in the team’s Historial', () => {
  const bed = useWebTestBed();

  it('lists every start and marks the run once', async () => {
    const { adminToken, contestId } = await startContest(bed.server, 'admin_rafagas');
    await createUser(bed.server.orm, USER_TYPES.judge, 'juez_rafagas', 'clave-juez');
    const team = await agentTeam(bed.server, adminToken, {
      contestId,
      name: 'Los del Bucle',
      blocked: ['bucle-rafaga.exe'],
    });
    // Seen 200 ms apart as the agent saw them, whatever the requests' own round trips take on a busy
    // machine (the run is the machine's times, not the server's).
    const first = Date.now();
    for (let i = 0; i < 4; i++) {
      const seen = new Date(first + 200 * i);
      expect((await sendAttempt(bed.server.url, team.key, 'bucle-rafaga.exe', seen)).status).toBe(200);
    }

    const { page, context } = await openSignedIn(
      bed.browser,
      bed.server.url,
      'juez_rafagas',
      'clave-juez',
      '/homeJuez',
    );
    try {
      const history = new HistoryPage(page);
      await history.openTeamHistory(team.id);
      await expect.poll(() => history.attemptRows().count(), { timeout: 10_000 }).toBe(4);
      const bursts = history.dialog().getByTestId('attempt-burst');
      expect(await bursts.allTextContents()).toEqual(['4 intentos en 1 s']);
    } finally {
      await context.close();
    }
  });
});
