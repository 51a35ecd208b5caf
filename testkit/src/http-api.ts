import { randomUUID } from 'node:crypto';
import { EDUCATION_LEVELS, type AgentConfig, type AgentObservedProcess } from '@concurso/shared';

/**
 * A JSON client of a running server's REST API over HTTP (fetch), as one signed-in user: for servers
 * a test spawns (`deployment.ts`), or an in-process test server reached through its port. Also the
 * few setup calls every such test repeats (contest, coach, teams, agent keys), through the API as
 * an administrator's screens make them.
 */
export class HttpApi {
  /**
   * @param baseUrl `http://127.0.0.1:<port>`.
   * @param token bearer token (none: anonymous calls).
   * @param timeoutMs limit of each call (ms; default 15 000), so a hung server fails the test instead of stalling it.
   */
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
    private readonly timeoutMs = 15_000,
  ) {}

  /**
   * Signs in as `username` on `baseUrl` (`POST /api/auth/login`); answers a client with the token.
   * @throws on an answer other than 200.
   */
  static async signIn(baseUrl: string, username: string, password: string): Promise<HttpApi> {
    const { access_token } = await new HttpApi(baseUrl).call<{ access_token: string }>('/api/auth/login', {
      username,
      password,
    });
    return new HttpApi(baseUrl, access_token);
  }

  /** The same user on another process of the deployment (the token is valid on every process). */
  on(baseUrl: string): HttpApi {
    return new HttpApi(baseUrl, this.token, this.timeoutMs);
  }

  /**
   * `GET url` without `body`, `POST url` with it (JSON); answers the JSON answer.
   * @throws `<url>: <status> <answer>` on an answer outside 2xx.
   */
  async call<T = { data: unknown }>(url: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}${url}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const json = (await res.json().catch(() => null)) as T;
    if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  /** `call` answering the envelope's `data`. */
  async data<T>(url: string, body?: unknown): Promise<T> {
    return (await this.call<{ data: T }>(url, body)).data;
  }

  /** Creates a contest on `date` (the first one becomes the active contest); answers its id. */
  async createContest(date = '2026-11-21'): Promise<number> {
    return (await this.data<{ id: number }>('/api/createContest', { date })).id;
  }

  /** Creates a coach (a doctor by default); answers its id. */
  async createCoach(name: string, educationalLevel: string = EDUCATION_LEVELS[2]): Promise<number> {
    return (await this.data<{ id: number }>('/api/createCoach', { name, educationalLevel })).id;
  }

  /**
   * Creates a team (`POST /api/createTeam`) in contest `contestId`, or without it in the active contest
   * (the server's default); answers its id and name.
   */
  async createTeam(
    name: string,
    levelsId: number,
    coachId: number,
    contestId?: number,
  ): Promise<{ id: number; name: string }> {
    return this.data('/api/createTeam', {
      name,
      levels_id: levelsId,
      coaches_id: coachId,
      ...(contestId === undefined ? {} : { contests_id: contestId }),
    });
  }

  /**
   * Registers the catalogue chain a member's career needs: one school, one department of it (type 0)
   * and the careers `names` in that department, as an administrator does on /schools, /departaments
   * and /careers. Answers the ids (`careerIds` in the order of `names`).
   */
  async createCareers(
    names: readonly string[],
    { school = 'Centro Universitario', departament = 'Ciencias Computacionales' } = {},
  ): Promise<{ schoolId: number; departamentId: number; careerIds: number[] }> {
    const schoolId = (await this.data<{ id: number }>('/api/createSchool', { name: school })).id;
    const departamentId = (
      await this.data<{ id: number }>('/api/createDepartament', {
        name: departament,
        type: 0,
        schools_id: schoolId,
      })
    ).id;
    const careerIds: number[] = [];
    for (const name of names) {
      careerIds.push(
        (await this.data<{ id: number }>('/api/createCareer', { name, departaments_id: departamentId })).id,
      );
    }
    return { schoolId, departamentId, careerIds };
  }

  /** Makes contest `id` the active one (`POST /api/activateContest/{id}`); answers its row. */
  async activateContest(id: number): Promise<{ id: number; active: boolean }> {
    return this.data(`/api/activateContest/${id}`, {});
  }

  /** Generates (again) a team's agent key; answers the key. */
  async generateAgentKey(teamId: number): Promise<string> {
    return (await this.data<{ key: string }>(`/api/generateAgentKey/${teamId}`, {})).key;
  }
}

/**
 * Reports one attempt as a team's agent would (`POST /api/agent/attempts` with the team's agent
 * `key`): a new event id, `process`, seen at `occurredAt` (default now). Answers the raw response (200
 * when counted).
 */
export function sendAttempt(
  baseUrl: string,
  key: string,
  process = 'chrome.exe',
  occurredAt = new Date(),
): Promise<Response> {
  return fetch(`${baseUrl}/api/agent/attempts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      attempts: [{ event_id: randomUUID(), process, occurred_at: occurredAt.toISOString() }],
    }),
  });
}

/**
 * One executable as an agent reports it in `POST /api/agent/observed`: `name` with its
 * fingerprint (null: unreadable), seen `starts` times (default 1) between `firstSeen` and `lastSeen`
 * (default now).
 */
export function observedEntry(
  name: string,
  sha256: string | null = null,
  { starts = 1, firstSeen = new Date(), lastSeen = firstSeen }: ObservedEntryOptions = {},
): AgentObservedProcess {
  return { name, sha256, first_seen: firstSeen.toISOString(), last_seen: lastSeen.toISOString(), starts };
}

/** What `observedEntry` may set besides the name and fingerprint. */
export interface ObservedEntryOptions {
  starts?: number;
  firstSeen?: Date;
  lastSeen?: Date;
}

/**
 * The agent's configuration as the agent holding `key` gets it (`GET /api/agent/config`): its team,
 * the contest (with `active`) and the blocked set (empty while the team's contest is not the active
 * one).
 * @throws `agent/config: <status> <answer>` on an answer other than 200.
 */
export async function agentConfig(baseUrl: string, key: string): Promise<AgentConfig> {
  const res = await fetch(`${baseUrl}/api/agent/config`, { headers: { authorization: `Bearer ${key}` } });
  if (res.status !== 200) throw new Error(`agent/config: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: AgentConfig }).data;
}
