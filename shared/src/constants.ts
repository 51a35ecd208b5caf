/**
 * Business constants of docs/spec.md section 9 and docs/design.md sections 3, 5 and 6.
 * Server, web and agent import them from here; nothing else defines them.
 */

/** User types by `types_users_id` (docs/spec.md section 9, docs/design.md section 1). */
export const USER_TYPES = {
  admin: 1,
  judge: 2,
  participant: 3,
} as const;
export type UserTypeId = (typeof USER_TYPES)[keyof typeof USER_TYPES];

/** Seeded rows of `types_users` (docs/design.md section 3). */
export const USER_TYPE_NAMES: Record<UserTypeId, string> = {
  1: 'Administrador',
  2: 'Juez',
  3: 'Participante',
};

/** Seeded levels (docs/design.md section 3). The boards show exactly these three. */
export const LEVELS = {
  basico: 1,
  intermedio: 2,
  avanzado: 3,
} as const;
export type BoardLevelKey = keyof typeof LEVELS;
export const BOARD_LEVEL_KEYS: readonly BoardLevelKey[] = ['basico', 'intermedio', 'avanzado'];

/** Seeded level names, by id. */
export const LEVEL_NAMES: Record<number, string> = {
  1: 'Básico',
  2: 'Intermedio',
  3: 'Avanzado',
};

/** Titles of the board tables on /homeJuez and /home (docs/spec.md section 2). */
export const BOARD_LEVEL_TITLES: Record<BoardLevelKey, string> = {
  basico: 'Nivel Básico',
  intermedio: 'Nivel Intermedio',
  avanzado: 'Nivel Avanzado',
};

/** Team statuses (docs/spec.md section 4, docs/design.md section 3): 1 active, 2 disqualified. */
export const TEAM_STATUS = {
  active: 1,
  disqualified: 2,
} as const;
export const TEAM_STATUS_NAMES: Record<number, string> = {
  1: 'Activo',
  2: 'Descalificado',
};

/** Coach education levels (docs/spec.md section 9). */
export const EDUCATION_LEVELS = ['Licenciatura/Ingeniería', 'Maestría', 'Doctorado', 'PosDoctorado'] as const;

/** Member semesters 1..10 (docs/spec.md section 9). */
export const SEMESTERS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

/** Department type: 0 internal, anything else external (docs/spec.md section 9). */
export const DEPARTAMENT_TYPES = { internal: 0, external: 1 } as const;

/** Table page sizes (docs/spec.md section 9); `-1` stands for "Todos". */
export const PAGE_SIZES = [5, 10, 25, 50, -1] as const;
export const DEFAULT_PAGE_SIZE = 5;

/**
 * An agent is shown offline when its last heartbeat is older than this (ms).
 * docs/design.md section 6 (the heartbeat drives the board's agent state); about 30 s.
 */
export const AGENT_OFFLINE_AFTER_MS = 30_000;

/** How often the agent sends a heartbeat (ms). */
export const AGENT_HEARTBEAT_MS = 10_000;

/** How often the agent lists processes (ms), docs/design.md section 6. */
export const AGENT_POLL_MS = 1_000;

/** Most attempts one `POST /api/agent/attempts` may carry. */
export const AGENT_MAX_BATCH = 500;

/**
 * Longest push window of one server process (ms). A change on an idle board goes out on the next turn
 * of the event loop; changes that come while the window after a push runs wait for its end and go
 * together, newest row per team (one frame per screen per window instead of one per change, so
 * thousands of screens and agents fit on a small server). The window has no fixed floor: it is twice
 * the push's own averaged duration, and grows towards this ceiling while the event loop stays
 * saturated, so the push yields to the API under load (server/src/modules/board/push-tick.ts). This
 * caps how stale a screen with credit may be.
 */
export const BOARD_PUSH_WINDOW_MAX_MS = 250;

/**
 * Flow control of the board push: frames a screen may have unacknowledged (`board.ack`)
 * before the server stops sending it more. A screen that falls this far behind costs nothing per
 * missed frame; when it acknowledges again it gets one catch-up frame of its levels' changed rows.
 */
export const BOARD_PUSH_CREDIT = 8;

/**
 * A screen acknowledges every this many frames (the last one's `seq` covers the ones before it), not
 * each: an ack costs the server about as much CPU as sending the frame (bench/BENCHMARKS.md,
 * "push transport"). Half the credit, so a screen that keeps up never runs out of it.
 */
export const BOARD_ACK_EVERY = 4;

/** Socket.IO path (docs/design.md section 6). */
export const SOCKET_PATH = '/socket.io';

/**
 * Failed logins allowed before 429 (docs/design.md section 4, after OWASP ASVS 2.2.1; the README states the
 * rule): per client address, and per account (username) from one client address, each in its window
 * (ms). A blocked key waits for its window. No limit counts an account's failures from every address,
 * so failing on purpose never locks the account for an address that has not failed.
 */
export const LOGIN_LIMITS = {
  perAddress: { max: 10, windowMs: 60_000 },
  perAccountAddress: { max: 100, windowMs: 60 * 60_000 },
} as const;

/**
 * The projector's paging (readable in any hall): when a level's rows do not
 * fit its column, its list turns to the next page every `defaultSeconds` seconds; `/proyector?segundos=N`
 * sets another period, a whole number from `minSeconds` to `maxSeconds` (anything else keeps the default).
 */
export const PROJECTOR_PAGING = { defaultSeconds: 10, minSeconds: 3, maxSeconds: 120 } as const;

/**
 * Fingerprints are claims (docs/design.md section 6a): how many different teams of the active
 * contest must report the same (process, SHA-256) before it applies to every machine of the contest
 * without an admin's confirmation. The server's `FINGERPRINT_QUORUM` overrides it.
 */
export const FINGERPRINT_QUORUM_DEFAULT = 3;

/**
 * Most fingerprints kept per blocked process per contest (docs/design.md section 6a). Past it a
 * new claim pushes out the weakest unconfirmed one (fewest teams, then the longest unclaimed); when
 * every one is confirmed, the new claim is dropped.
 */
export const FINGERPRINT_MAX_PER_PROCESS = 32;

/** Most new fingerprint claims one team may make per minute; past it they are not learned. */
export const FINGERPRINT_CLAIMS_PER_MINUTE = 5;

/**
 * Bytes of JSON the fingerprints of one agent config may take at most (the whole config
 * stays under 64 KB whatever the agents report). Past it the weakest fingerprints are left out:
 * confirmed ones first in, then those at quorum, then the team's own claims.
 */
export const AGENT_CONFIG_FINGERPRINT_BYTES = 48 * 1024;

/**
 * Bounds on what one agent key may make the observed inventory hold (docs/design.md section 6a):
 * at most `maxPerTeam` distinct programs (file name and fingerprint) per team per contest (past it the
 * new ones are left out and the answer is 429; what was stored stays, and programs already stored keep
 * adding their starts), at most `reportsPerMinute` reports per team (past it: 429 with `Retry-After`,
 * nothing stored; an agent sends one every 15 s, so a team's machines fit many times over), and a
 * program's `count` saturates at `maxCount` (its INT UNSIGNED column) instead of overflowing.
 */
export const OBSERVED_LIMITS = {
  maxPerTeam: 500,
  reportsPerMinute: 20,
  maxCount: 4_294_967_295,
} as const;

/**
 * What one agent key may do through the lab channel (docs/design.md section 6a: every key is possibly
 * stolen, and nothing it sends may grow the server without bound):
 * - agent sockets of one team in one server process: at most `LAB_MAX_MACHINES_PER_TEAM`, one per lab
 *   machine; a new one past it closes the team's oldest (a machine that rebooted left a half-open one).
 * - `handshakesPerMinute`: agent socket handshakes per team and process; past it `rate_limited`.
 * - `eventsPerWindow` events (receipts, policy acknowledgements) per socket each `eventWindowMs` (ms);
 *   past it the socket is disconnected, logged. An honest agent sends a few per message or policy.
 * - `openMessagesPerSocket`: messages a socket may still acknowledge; older ones are forgotten.
 * - `wrongKeysPerMinute`: wrong agent keys per client address (HTTP and handshakes) before that
 *   address gets 429 for a minute; a right key already known to the server still passes.
 * - `attemptRowsPerTeam`: attempt rows one team keeps in its contest; the count saturates there and
 *   new attempts are answered 429 with `attemptsRetryAfterS` (s), kept in the agent's outbox.
 */
export const AGENT_CHANNEL_LIMITS = {
  handshakesPerMinute: 30,
  eventsPerWindow: 40,
  eventWindowMs: 10_000,
  openMessagesPerSocket: 100,
  wrongKeysPerMinute: 60,
  attemptRowsPerTeam: 10_000,
  attemptsRetryAfterS: 300,
} as const;

/** Rows per page of the observed inventory (paged on the server), the first the default. */
export const OBSERVED_PAGE_SIZES = [25, 50, 100] as const;

/** The observed inventory's sortable columns (`sort` of `GET /api/observedProcesses`). */
export const OBSERVED_SORTS = ['machines', 'name', 'first_seen', 'last_seen', 'count'] as const;
export type ObservedSort = (typeof OBSERVED_SORTS)[number];

/**
 * «Programa nuevo» (docs/design.md section 6a: a program is known by what it is, and an unknown tool is
 * looked at while it runs): the contest's first minutes, in ms, counted from its first observed start
 * (the earliest `first_seen` of its inventory: when its agents began to report what runs). In them every
 * team opens its IDEs, browsers and terminals, so nothing first seen then is «nuevo». After them, an
 * executable that no other team of the contest has run (by its name as the agent compares names, nor by
 * its SHA-256) is «nuevo» on /procesosObservados and on the board.
 */
export const NEW_PROGRAM_AFTER_MS = 10 * 60_000;

/**
 * How long the board's «programa nuevo» mark stays on a team after the new program's latest reported
 * start (ms, the agent's clock): long enough for a judge to walk to the machine while it runs; the
 * mark goes as soon as a second team runs the same program.
 */
export const NEW_PROGRAM_RECENT_MS = 15 * 60_000;

/** Longest executable path an agent reports with what ran (characters; longer ones are cut). */
export const OBSERVED_PATH_MAX = 1024;
