/**
 * Seeds what a load run needs, through the public API only: an admin session, a contest dated today
 * (so it is the current one), a coach, a judge for the screens, M teams spread over the three levels
 * and one agent key per team. Requests run 20 at a time so 500 teams take seconds.
 */
import { randomBytes } from 'node:crypto';
import { LEVELS, USER_TYPES } from '@concurso/shared';
import { mapLimit, type HttpClient } from './http.js';

/** One simulated agent's team. */
interface SeededTeam {
  id: number;
  levels_id: number;
  /** The agent key (`Authorization: Bearer`). */
  key: string;
}

/** What the run drives. */
export interface Seeded {
  /** Admin JWT (toggles). */
  adminToken: string;
  /** Judge JWT shared by every screen (logged in once). */
  judgeToken: string;
  contestId: number;
  teams: SeededTeam[];
  /** Wall time of the seeding (ms). */
  ms: number;
}

/** Seeding options. */
export interface SeedOptions {
  /** Base URL of one server process. */
  url: string;
  adminUser: string;
  adminPassword: string;
  teams: number;
  /** Requests in flight at once (default 20). */
  concurrency?: number;
  log: (line: string) => void;
}

interface Envelope<T> {
  success: boolean;
  data: T;
}

/** Today's date, local time, `YYYY-MM-DD`. */
function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

async function login(http: HttpClient, url: string, username: string, password: string): Promise<string> {
  const res = await http.ok<{ access_token: string }>(`${url}/api/auth/login`, {
    body: { username, password },
  });
  return res.access_token;
}

/** Seeds a run; names carry a random run id so a shared server (`--url`) keeps working. */
export async function seed(http: HttpClient, options: SeedOptions): Promise<Seeded> {
  const started = performance.now();
  const { url } = options;
  const limit = options.concurrency ?? 20;
  const run = randomBytes(3).toString('hex');
  const adminToken = await login(http, url, options.adminUser, options.adminPassword);
  const post = <T>(path: string, body: unknown) =>
    http.ok<Envelope<T>>(`${url}/api${path}`, { token: adminToken, body }).then((r) => r.data);

  const contest = await post<{ id: number }>('/createContest', { date: today() });
  const coach = await post<{ id: number }>('/createCoach', {
    name: `Coach banco ${run}`,
    educationalLevel: 'Doctorado',
  });
  const judgeName = `juez_banco_${run}`;
  const judgePassword = randomBytes(12).toString('base64url');
  await post('/createUser', {
    name: `Juez banco ${run}`,
    username: judgeName,
    password: judgePassword,
    types_users_id: USER_TYPES.judge,
  });
  const judgeToken = await login(http, url, judgeName, judgePassword);

  const levels = Object.values(LEVELS);
  const indexes = Array.from({ length: options.teams }, (_, i) => i);
  const created = await mapLimit(indexes, limit, (i) =>
    post<{ id: number; levels_id: number }>('/createTeam', {
      name: `Banco ${run} ${String(i + 1).padStart(4, '0')}`,
      levels_id: levels[i % levels.length]!,
      coaches_id: coach.id,
    }),
  );
  options.log(`seed: ${created.length} teams created`);
  const teams = await mapLimit(created, limit, async (team) => {
    const { key } = await post<{ key: string }>(`/generateAgentKey/${team.id}`, {});
    return { id: team.id, levels_id: team.levels_id, key };
  });
  const ms = performance.now() - started;
  options.log(`seed: ${teams.length} agent keys in ${(ms / 1000).toFixed(1)} s`);
  return { adminToken, judgeToken, contestId: contest.id, teams, ms };
}
