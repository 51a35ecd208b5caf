import fp from 'fastify-plugin';
import { presenceOptions, sweepSilentAgents } from './agent.service.js';

/**
 * Turns a team's `agent_online` false on every board once its agent has been silent for
 * `offlineAfterMs` (docs/design.md section 6: a judge sees a machine whose agent was stopped), alerts for
 * each silent machine of the active contest, announces flaps that settled and deletes machine rows
 * silent long (`sweepSilentAgents`, presence per machine, docs/design.md section 6a). Sweeps every
 * `offlineAfterMs / 6` (at most 5 s), so the change shows within about 1.2 times the delay.
 */
export default fp<{ offlineAfterMs: number }>(
  async (app, { offlineAfterMs }) => {
    const intervalMs = Math.max(100, Math.min(5_000, Math.floor(offlineAfterMs / 6)));
    const options = presenceOptions(offlineAfterMs);
    let running = false;
    const timer = setInterval(() => {
      if (running) return; // A slow database: never pile sweeps up.
      running = true;
      sweepSilentAgents(app.orm.em.fork(), options)
        .then((rows) => rows.forEach((row) => app.board.teamUpdated(row)))
        .catch((err) => app.log.warn({ err }, 'agent presence sweep failed'))
        .finally(() => {
          running = false;
        });
    }, intervalMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'agent-presence', dependencies: ['orm', 'board'] },
);
