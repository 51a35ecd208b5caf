/**
 * `npm run bench:projector`: the projector (/proyector) in Debian's Chromium with 3,000 teams while
 * the server applies a steady stream of changes (default 100 per second for 20 s: attempts and
 * toggles spread over random teams). Counts the page's long tasks (over 50 ms, PerformanceObserver
 * 'longtask') while events flow, and the DOM changes inside projector rows (`row_dom_updates`: proof
 * that the pushes were applied, not dropped). Prints JSON.
 * Needs the built web (`npm run build`).
 *
 * Options: --teams N (3000), --rate R events/s (100), --seconds S (20).
 */
import { parseArgs } from 'node:util';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import { createContest, generateAgentKey, sendAttempt, signIn, startWebTestBed } from '@concurso/testkit';

const { values } = parseArgs({
  options: {
    teams: { type: 'string', default: '3000' },
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '20' },
  },
});
const TEAMS = Number(values.teams);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);

const bed = await startWebTestBed();
const { server, browser } = bed;
try {
  const token = await signIn(server, USER_TYPES.admin, 'bench_sala', 'clave-bench');
  const contest = await createContest(server.orm);
  const em = server.orm.em.fork();
  await em.execute("insert into coaches (name, educationalLevel) values ('Coach de prueba', 'Maestría')");
  const levels = Object.values(LEVELS);
  for (let start = 0; start < TEAMS; start += 500) {
    const rows = Array.from({ length: Math.min(500, TEAMS - start) }, (_, i) => start + i);
    await em.execute(
      `insert into teams (name, levels_id, coaches_id, contests_id) values ${rows.map(() => '(?, ?, 1, ?)').join(', ')}`,
      rows.flatMap((i) => [`Equipo ${String(i + 1).padStart(4, '0')}`, levels[i % 3], contest.id]),
    );
  }
  const ids = (await em.execute<Array<{ id: number }>>('select id from teams order by id')).map((r) =>
    Number(r.id),
  );
  const keys = new Map<number, string>();
  for (const id of ids.slice(0, 200)) keys.set(id, await generateAgentKey(server.app, token, id));

  const page = await (await browser.newContext({ viewport: { width: 1920, height: 1080 } })).newPage();
  await page.goto(`${server.url}/`);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  await page.goto(`${server.url}/proyector`);
  await page.getByTestId('connection-state').filter({ hasText: 'Conectado' }).waitFor();
  await page.getByTestId('projector-basico').waitFor();
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[]; rowUpdates: number };
    w.longTasks = [];
    w.rowUpdates = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
    // Proof that the page really applied the pushes: changes of the rows on screen (counts, marks).
    new MutationObserver((records) => {
      for (const record of records) {
        const el = record.target instanceof Element ? record.target : record.target.parentElement;
        if (el?.closest('[data-testid^="projector-row-"]')) w.rowUpdates += 1;
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });

  // Steady stream: every 10 ms, RATE/100 changes; attempts on teams with keys, toggles on any team.
  let sent = 0;
  let failed = 0;
  const until = Date.now() + SECONDS * 1000;
  const teamsWithKeys = [...keys.keys()];
  const inflight = new Set<Promise<void>>();
  let budget = 0;
  while (Date.now() < until) {
    const tickStart = Date.now();
    // RATE/100 per 10 ms tick, carried over so rates below 100/s work too.
    budget += RATE / 100;
    for (; budget >= 1; budget -= 1) {
      const attempt = Math.random() < 0.8;
      const request = attempt
        ? sendAttempt(server.url, keys.get(teamsWithKeys[Math.floor(Math.random() * teamsWithKeys.length)]!)!)
        : fetch(`${server.url}/api/descalificarTeam/${ids[Math.floor(Math.random() * ids.length)]}`, {
            headers: { authorization: `Bearer ${token}` },
          });
      const p: Promise<void> = request
        .then((res) => {
          if (res.ok) sent += 1;
          else failed += 1;
          return res.arrayBuffer();
        })
        .then(
          () => undefined,
          () => void (failed += 1),
        )
        .finally(() => inflight.delete(p));
      inflight.add(p);
    }
    await new Promise((r) => setTimeout(r, Math.max(0, 10 - (Date.now() - tickStart))));
  }
  await Promise.all(inflight);
  await new Promise((r) => setTimeout(r, 1_000));
  const { longTasks, rowUpdates } = await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[]; rowUpdates: number };
    return { longTasks: w.longTasks, rowUpdates: w.rowUpdates };
  });
  console.log(
    JSON.stringify(
      {
        teams: TEAMS,
        rate_per_s: RATE,
        seconds: SECONDS,
        changes_sent: sent,
        changes_failed: failed,
        long_tasks_over_50ms: longTasks.length,
        longest_task_ms: longTasks.length ? Math.round(Math.max(...longTasks)) : 0,
        row_dom_updates: rowUpdates,
        viewport: '1920x1080',
      },
      null,
      2,
    ),
  );
} finally {
  await bed.close();
}
