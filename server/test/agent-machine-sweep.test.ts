import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS } from '@concurso/shared';
import { createContest, createTeam, startContest, startTestServer, type TestServer } from '@concurso/testkit';
import {
  deleteExpiredMachines,
  teamsWithMachineChanges,
} from '../src/modules/agent/agent-machines.repository.js';

/*
 * The lab sweep's two reads of machines by their team's contest (presence per machine, docs/design.md
 * section 6a), which reach the team's contest through the ORM's relation: which teams the sweep looks
 * at, and which silent machine rows go (an alarm of the active contest stays).
 */
describe('the lab sweep’s machines by their team’s contest', () => {
  let server: TestServer;
  let contestId: number;
  let otherContestId: number;
  let active: { id: number };
  let other: { id: number };
  const longAgo = new Date(Date.now() - 3_600_000);
  const now = new Date();

  beforeAll(async () => {
    server = await startTestServer();
    ({ contestId } = await startContest(server, 'admin_sweep'));
    otherContestId = (await createContest(server.orm, '2026-12-01')).id;
    active = await createTeam(server.orm, contestId, LEVELS.basico, 'Activos');
    other = await createTeam(server.orm, otherContestId, LEVELS.basico, 'De otro concurso');
  });
  afterAll(async () => server?.close());

  const addMachine = (
    teamId: number,
    hostname: string,
    lastSeen: Date,
    state: { alert?: string | null; logged?: string | null; changedAt?: Date | null } = {},
  ) =>
    server.orm.em
      .fork()
      .execute(
        'insert into agent_machines (teams_id, hostname, os, version, online_since, last_seen, alert, logged, changed_at) ' +
          "values (?, ?, 'linux', '1.0.0', ?, ?, ?, ?, ?)",
        [
          teamId,
          hostname,
          lastSeen,
          lastSeen,
          state.alert ?? null,
          state.logged ?? null,
          state.changedAt ?? null,
        ],
      );
  const hostnames = async () =>
    (
      await server.orm.em
        .fork()
        .execute<Array<{ hostname: string }>>('select hostname from agent_machines order by hostname')
    ).map((row) => row.hostname);
  const clear = () => server.orm.em.fork().execute('delete from agent_machines');

  it('looks at silent and stopped machines of the active contest only, and at settled flaps of any', async () => {
    await clear();
    await addMachine(active.id, 'activa-callada', longAgo);
    await addMachine(other.id, 'otra-callada', longAgo);
    expect(await teamsWithMachineChanges(server.orm.em.fork(), contestId, now, longAgo)).toEqual([active.id]);
    expect(await teamsWithMachineChanges(server.orm.em.fork(), null, now, longAgo)).toEqual([]);

    await clear();
    await addMachine(active.id, 'activa-viva', now);
    await addMachine(other.id, 'otra-vaiven', now, {
      alert: 'detenido',
      logged: null,
      changedAt: new Date(now.getTime() - 60_000),
    });
    // Its state (detenido) differs from what was logged (en línea) since before quietBefore.
    expect(await teamsWithMachineChanges(server.orm.em.fork(), contestId, longAgo, now)).toEqual([other.id]);
  });

  it('deletes machines silent long, except an alarm of the active contest', async () => {
    await clear();
    await addMachine(active.id, 'a-alarma', longAgo, { alert: 'sin_senal', logged: 'sin_senal' });
    await addMachine(active.id, 'a-sin-alarma', longAgo, { logged: 'detenido' });
    await addMachine(active.id, 'a-nunca-registrada', longAgo);
    await addMachine(active.id, 'a-reciente', now);
    await addMachine(other.id, 'o-alarma', longAgo, { alert: 'sin_reanudar', logged: 'sin_reanudar' });
    const before = new Date(now.getTime() - 60_000);

    expect(await deleteExpiredMachines(server.orm.em.fork(), contestId, before)).toBe(3);
    expect(await hostnames()).toEqual(['a-alarma', 'a-reciente']);
    // With no active contest no alarm holds a row.
    expect(await deleteExpiredMachines(server.orm.em.fork(), null, before)).toBe(1);
    expect(await hostnames()).toEqual(['a-reciente']);
  });
});
