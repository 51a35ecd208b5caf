import { randomBytes, randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/mysql';
import {
  EDUCATION_LEVELS,
  LEVELS,
  USER_TYPES,
  calendarOf,
  type AgentObservedProcess,
  type UserTypeId,
} from '@concurso/shared';
import { hashPassword } from '../../server/src/lib/passwords.js';
import { activateContest } from '../../server/src/modules/contests/index.js';
import {
  Coach,
  Contest,
  ContestProcess,
  Level,
  Process,
  Team,
  TypeUser,
  User,
} from '../../server/src/db/entities.js';
import type { TestServer } from './test-server.js';

/**
 * Test data, written straight through the ORM of a test server (fast, no HTTP), and the sign-ins and
 * agent keys a test needs, through the API as a client would. Shared by server tests, e2e and bench.
 */

/** Creates a user with a password (staff) or none (participant). */
export async function createUser(
  orm: MikroORM,
  type: UserTypeId,
  username = `u_${randomBytes(4).toString('hex')}`,
  password: string | null = 'secreto-123',
) {
  const em = orm.em.fork();
  const user = em.create(
    User,
    {
      name: `Usuario ${username}`,
      username,
      password: password === null ? null : await hashPassword(password),
      type: em.getReference(TypeUser, type),
      // `partial`: MikroORM 6.6 types a hidden nullable column as required.
    },
    { partial: true },
  );
  await em.persistAndFlush(user);
  return { id: user.id, username, password };
}

/**
 * Creates a contest on `date` (`YYYY-MM-DD`) as `createContest` does (docs/design.md section 3): the first
 * contest becomes the active one, later ones not. `active: true` then activates it (the
 * `activateContest` of the contests repository), `active: false` keeps even a first one inactive.
 */
export async function createContest(orm: MikroORM, date = '2026-11-21', options: { active?: boolean } = {}) {
  const em = orm.em.fork();
  const active = options.active ?? (await em.count(Contest, { activeKey: 1 })) === 0;
  const contest = em.create(Contest, { date, calendar: calendarOf(date), activeKey: null });
  await em.persistAndFlush(contest);
  if (active) await em.transactional((tem) => activateContest(tem, contest.id));
  return contest;
}

/** Creates a team (and a coach for it) in `contestId` at `levelsId`. */
export async function createTeam(orm: MikroORM, contestId: number, levelsId: number, name?: string) {
  const em = orm.em.fork();
  const coach = em.create(Coach, { name: 'Mtra. Laura Méndez', educationalLevel: EDUCATION_LEVELS[1] });
  const team = em.create(
    Team,
    {
      name: name ?? `Equipo ${randomBytes(3).toString('hex')}`,
      level: em.getReference(Level, levelsId),
      coach,
      contest: em.getReference(Contest, contestId),
    },
    { partial: true },
  );
  await em.persistAndFlush(team);
  return { id: team.id, name: team.name, levels_id: levelsId };
}

/**
 * Adds `names` (executable file names, e.g. `Discord.exe`) to the forbidden processes and to the
 * blocked set of `contestId`; names already there are reused, so teams of one contest may each
 * call it (docs/spec.md section 5: the blocked set is the contest's, not the team's).
 */
export async function blockProcesses(orm: MikroORM, contestId: number, names: string[]): Promise<void> {
  const em = orm.em.fork();
  for (const name of names) {
    const process = (await em.findOne(Process, { name })) ?? em.create(Process, { name });
    await em.flush();
    if (!(await em.findOne(ContestProcess, { contest: contestId, process }))) {
      em.create(ContestProcess, { contest: em.getReference(Contest, contestId), process });
      await em.flush();
    }
  }
}

/** Attempt rows of a team and its `number_attempts`, read straight from the database. */
export async function attemptCounts(orm: MikroORM, teamId: number): Promise<{ rows: number; count: number }> {
  const rows = await orm.em
    .fork()
    .execute<Array<{ n: number; total: number }>>(
      'select (select count(*) from attempts where teams_id = ?) as n, (select number_attempts from teams where id = ?) as total',
      [teamId, teamId],
    );
  return { rows: Number(rows[0]!.n), count: Number(rows[0]!.total) };
}

/** Signs in through the API (`POST /api/auth/login`) and returns the bearer token. */
export async function login(app: TestServer['app'], username: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`login ${username}: ${res.statusCode} ${res.body}`);
  return res.json().access_token as string;
}

/**
 * Creates a staff user (`createUser`) and signs in as them (`login`): the start of most tests.
 * Answers the bearer token.
 */
export async function signIn(
  server: TestServer,
  type: UserTypeId,
  username: string,
  password: string,
): Promise<string> {
  await createUser(server.orm, type, username, password);
  return login(server.app, username, password);
}

/**
 * An administrator `admin_<suffix>` (password `clave-admin`) and a judge `juez_<suffix>`
 * (`clave-juez`), both signed in: the two roles most tests call the API as. Answers their tokens.
 */
export async function signInStaff(
  server: TestServer,
  suffix: string,
): Promise<{ admin: string; judge: string }> {
  return {
    admin: await signIn(server, USER_TYPES.admin, `admin_${suffix}`, 'clave-admin'),
    judge: await signIn(server, USER_TYPES.judge, `juez_${suffix}`, 'clave-juez'),
  };
}

/** Generates a team's agent key through the API as an admin; answers the key. */
export async function generateAgentKey(
  app: TestServer['app'],
  adminToken: string,
  teamId: number,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/generateAgentKey/${teamId}`,
    headers: { authorization: `Bearer ${adminToken}` },
  });
  if (res.statusCode !== 200) throw new Error(`generateAgentKey ${teamId}: ${res.statusCode} ${res.body}`);
  return res.json().data.key as string;
}

/** What `agentTeam` makes. */
export interface AgentTeamOptions {
  contestId: number;
  /** Default: básico. */
  levelsId?: number;
  name?: string;
  /** Executables added to the contest's blocked set (`blockProcesses`). */
  blocked?: string[];
}

/**
 * A team ready for an agent: created in `contestId` (`createTeam`), the contest's blocked set
 * extended with `blocked`, and an agent key generated through the API as `adminToken`.
 */
export async function agentTeam(server: TestServer, adminToken: string, options: AgentTeamOptions) {
  const team = await createTeam(
    server.orm,
    options.contestId,
    options.levelsId ?? LEVELS.basico,
    options.name,
  );
  if (options.blocked?.length) await blockProcesses(server.orm, options.contestId, options.blocked);
  return { ...team, key: await generateAgentKey(server.app, adminToken, team.id) };
}

/** What `startContest` answers: an admin's token and the active contest's id. */
export interface ContestSetup {
  adminToken: string;
  contestId: number;
}

/**
 * The usual start of an agent or board test on `server`: an admin signed in (`username`, password
 * `clave-admin`) and an active contest (2026-11-21).
 */
export async function startContest(server: TestServer, username: string): Promise<ContestSetup> {
  const adminToken = await signIn(server, USER_TYPES.admin, username, 'clave-admin');
  return { adminToken, contestId: (await createContest(server.orm)).id };
}

/**
 * One attempt of `POST /api/agent/attempts` as an agent sends it (docs/design.md section 6):
 * `sha256` of the ended executable, `executable` the name a renamed copy ran as.
 */
export interface AgentAttemptBody {
  event_id: string;
  process: string;
  occurred_at: string;
  sha256?: string;
  executable?: string;
  /** How the agent matched it: 'nombre', 'huella' or 'similar' (docs/design.md section 6a). */
  match?: 'nombre' | 'huella' | 'similar';
  /** Similarity digest and ELF build-id of the ended executable (docs/design.md section 6a "Similar files"). */
  tlsh?: string;
  build_id?: string;
  /** What ran the program when a loader or an interpreter did (`python3`; agent/src/README.md). */
  via?: string;
}

/** Fresh attempts, one per name of `processes` (a new event id each), occurred at `occurredAt`. */
export function newAttempts(processes: readonly string[], occurredAt = new Date()): AgentAttemptBody[] {
  return processes.map((process) => ({
    event_id: randomUUID(),
    process,
    occurred_at: occurredAt.toISOString(),
  }));
}

/**
 * Posts `attempts` (or fresh ones for process names) as the agent of `key`, in process
 * (`app.inject`), and answers the response; resend the same attempts to test an agent's retry.
 */
export function injectAttempts(
  app: TestServer['app'],
  key: string,
  attempts: readonly AgentAttemptBody[] | readonly string[],
) {
  const body = attempts.map((a) => (typeof a === 'string' ? newAttempts([a])[0]! : a));
  return app.inject({
    method: 'POST',
    url: '/api/agent/attempts',
    headers: { authorization: `Bearer ${key}` },
    payload: { attempts: body },
  });
}

/**
 * Posts `observed` executables (`observedEntry` of http-api.ts builds them) as the agent of `key`, in
 * process (`app.inject`, `POST /api/agent/observed`), and answers the response.
 */
export function injectObserved(
  app: TestServer['app'],
  key: string,
  observed: readonly AgentObservedProcess[],
) {
  return app.inject({
    method: 'POST',
    url: '/api/agent/observed',
    headers: { authorization: `Bearer ${key}` },
    payload: { observed },
  });
}

/**
 * Calls the API in process as the holder of `token` (a staff token or an agent key): GET without
 * `payload`, POST with it. Answers the status and the parsed JSON body.
 */
export async function callAs(app: TestServer['app'], token: string, url: string, payload?: object) {
  const res = await app.inject({
    method: payload === undefined ? 'GET' : 'POST',
    url,
    ...(payload === undefined ? {} : { payload }),
    headers: { authorization: `Bearer ${token}` },
  });
  // `json()` is loosely typed on purpose: each test reads the fields it checks.
  return { status: res.statusCode, body: res.json() };
}
