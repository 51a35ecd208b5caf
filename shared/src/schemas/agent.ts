import { z } from 'zod';
import { AGENT_MAX_BATCH, OBSERVED_PATH_MAX } from '../constants.js';
import { MESSAGES } from '../messages.js';
import { integerSchema, printableText, rowIntSchema } from './common.js';
import { contestRowSchema } from './catalogs.js';
import { NETWORK_FILTERS, agentNetworkPolicySchema, networkUnresolvedSchema } from './network.js';

/**
 * How far in the past an attempt's `occurred_at` may lie, by the clock of whoever parses it (the
 * server). An agent's outbox keeps attempts while the server is away (docs/design.md section 6), for hours
 * or a long weekend, so the window is wide; an agent away longer than this has lost its contest. Year
 * 0000 or 9999 is never an attempt.
 */
export const AGENT_ATTEMPT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * How far ahead of the parser's clock `occurred_at` may be: a lab machine's clock may be off by
 * minutes (or a time zone set wrong by hours), never by days.
 */
export const AGENT_ATTEMPT_MAX_AHEAD_MS = 24 * 60 * 60 * 1000;

const attemptDateMessages = {
  invalid: 'occurred_at: fecha y hora ISO 8601 no válida',
  tooOld: 'occurred_at: el intento tiene más de 30 días',
  ahead: 'occurred_at: la fecha está más de un día adelante del reloj del servidor',
} as const;

/**
 * `occurred_at`: an ISO 8601 date-time with its offset, within {@link AGENT_ATTEMPT_MAX_AGE_MS} before
 * and {@link AGENT_ATTEMPT_MAX_AHEAD_MS} after now, now being read at parse time.
 */
const occurredAtSchema = z.iso
  .datetime({
    offset: true,
    error: (issue) => (issue.input === undefined ? MESSAGES.required : attemptDateMessages.invalid),
  })
  .superRefine(
    (value, ctx) => {
      const at = Date.parse(value);
      const now = Date.now();
      if (Number.isNaN(at)) {
        ctx.addIssue({ code: 'custom', message: attemptDateMessages.invalid, input: value });
      } else if (at < now - AGENT_ATTEMPT_MAX_AGE_MS) {
        ctx.addIssue({ code: 'custom', message: attemptDateMessages.tooOld, input: value });
      } else if (at > now + AGENT_ATTEMPT_MAX_AHEAD_MS) {
        ctx.addIssue({ code: 'custom', message: attemptDateMessages.ahead, input: value });
      }
    },
    // Only a well-formed date-time has a place in time ('2026-02-30T…' would read as March 2).
    { when: (payload) => payload.issues.length === 0 },
  );

/**
 * A SHA-256 fingerprint of an executable file (docs/design.md section 6 "Renamed programs"): 64
 * lower-case hex digits.
 */
export const sha256Schema = z
  .string({ error: MESSAGES.required })
  .regex(/^[0-9a-f]{64}$/, { error: 'sha256: 64 dígitos hexadecimales en minúsculas' });

/** Longest similarity digest an agent may send: a TLSH digest is 72 characters, an ssdeep one at most 148. */
export const SIMILARITY_DIGEST_MAX_LENGTH = 148;

/**
 * A similarity digest of an executable file (TLSH `T1…` hex or ssdeep `blocksize:hash:hash`), opaque to
 * the server: 3 to {@link SIMILARITY_DIGEST_MAX_LENGTH} characters of `A-Z a-z 0-9 + / :`. A lab machine
 * is in a contestant's hands, so length and charset are bounded; the distance between two digests is
 * computed in `shared/src/similarity.ts`.
 */
export const similarityDigestSchema = z
  .string({ error: MESSAGES.required })
  .regex(new RegExp(`^[A-Za-z0-9+/:]{3,${SIMILARITY_DIGEST_MAX_LENGTH}}$`), {
    error: `tlsh: entre 3 y ${SIMILARITY_DIGEST_MAX_LENGTH} caracteres (letras, dígitos, "+", "/" o ":")`,
  });

/**
 * An ELF build-id (the `NT_GNU_BUILD_ID` note): 8 to 32 bytes as 16 to 64 lower-case hex digits (lld's
 * fast id is 8 bytes, GNU ld's default SHA-1 is 20).
 */
export const buildIdSchema = z.string({ error: MESSAGES.required }).regex(/^(?:[0-9a-f]{2}){8,32}$/, {
  error: 'build_id: de 16 a 64 dígitos hexadecimales en minúsculas, en pares',
});

/**
 * How an agent matched the process it ended (docs/design.md section 6a): by its file name (`'nombre'`), by
 * its executable's fingerprint (`'huella'`, a renamed copy) or by a similarity digest or build-id close
 * to a known file of a blocked program (`'similar'`, a patched copy). Neither `'huella'` nor `'similar'`
 * ever counts as a claim of a fingerprint.
 */
export const agentAttemptMatchSchema = z.enum(['nombre', 'huella', 'similar'], {
  error: "match: 'nombre', 'huella' o 'similar'",
});
export type AgentAttemptMatch = z.infer<typeof agentAttemptMatchSchema>;

/**
 * Whether an attempt matched as `match` teaches the server a fingerprint (docs/design.md section 6a): only a
 * kill by name (`'nombre'`, or absent from agents older than the field) is a claim; a kill by a
 * fingerprint (`'huella'`) or by similarity (`'similar'`) is not, so the victim of a forged fingerprint
 * or of a file merely close to one never becomes a claimant.
 */
export function isClaimMatch(match: AgentAttemptMatch | undefined): boolean {
  return match === undefined || match === 'nombre';
}

/**
 * An attempt's `event_id`: 8 to 64 letters, digits, '-' or '_', chosen by the agent and unique per team
 * (the attempt's identity for idempotent reports and for its screen captures).
 */
export const agentEventIdSchema = z
  .string({ error: MESSAGES.required })
  .min(8, { error: 'event_id: entre 8 y 64 caracteres' })
  .max(64, { error: 'event_id: entre 8 y 64 caracteres' })
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'event_id: letras, dígitos, "-" o "_"' });

/**
 * One attempt reported by an agent (docs/design.md section 6): `event_id` is unique per team and
 * makes the report idempotent; `occurred_at` is the agent's clock (ISO 8601), within a sane window of
 * the parser's clock; `process` is a printable name: the blocked name as the contest lists it.
 * `sha256` is the fingerprint of the ended process's executable (absent when it could not
 * be read), which the server learns for that blocked process; `executable` is the file name the
 * process ran as, sent only when it is not `process` (a renamed copy caught by its fingerprint).
 * `match` says how the agent matched it (docs/design.md section 6a "Fingerprints"): `'nombre'`, its file name
 * is the blocked name; `'huella'`, its executable's SHA-256 is a fingerprint of the config (a renamed
 * copy). Absent from agents older than the field. A `'huella'` attempt never teaches the server a
 * fingerprint: the victim of a forged fingerprint must not become one more claimant of it.
 */
export const agentAttemptSchema = z.object({
  event_id: agentEventIdSchema,
  process: printableText(255).min(1, { error: MESSAGES.required }),
  occurred_at: occurredAtSchema,
  /** False when the agent could not end the process (it still counts as an attempt). Default true. */
  killed: z.boolean({ error: 'killed: debe ser true o false' }).optional(),
  sha256: sha256Schema.optional(),
  executable: printableText(255).min(1).optional(),
  match: agentAttemptMatchSchema.optional(),
  /** Similarity digest of the ended executable (absent from older agents or when it has none). */
  tlsh: similarityDigestSchema.optional(),
  /** ELF build-id of the ended executable, when it has one. */
  build_id: buildIdSchema.optional(),
  /**
   * What ran the program when a loader or an interpreter did (`python3`, `ld-linux-x86-64.so.2`; at
   * most 64 characters): `process` is then the blocked program it ran, judged by that file.
   */
  via: printableText(64).min(1).optional(),
});
export type AgentAttempt = z.infer<typeof agentAttemptSchema>;

/**
 * One send of an agent: 1 to `max` items of `item` (none: 'Este campo es requerido'; more:
 * 'Máximo <max> <noun> por envío'), so no one request grows the server's work without bound.
 */
function batchOf<T extends z.ZodType>(item: T, max: number, noun: string) {
  return z
    .array(item, { error: MESSAGES.required })
    .min(1, { error: MESSAGES.required })
    .max(max, { error: `Máximo ${max} ${noun} por envío` });
}

/** Body of `POST /api/agent/attempts`: 1 to `AGENT_MAX_BATCH` attempts. */
export const agentAttemptsBodySchema = z.object({
  attempts: batchOf(agentAttemptSchema, AGENT_MAX_BATCH, 'intentos'),
});
export type AgentAttemptsBody = z.infer<typeof agentAttemptsBodySchema>;

/** Answer data of `POST /api/agent/attempts`: which event ids are now stored (new or already). */
export const agentAttemptsResultSchema = z.object({
  accepted: z.array(z.string()),
  counted: rowIntSchema,
  number_attempts: rowIntSchema,
});
export type AgentAttemptsResult = z.infer<typeof agentAttemptsResultSchema>;

/**
 * A fingerprint the server learned for a blocked process: an executable whose SHA-256 is
 * `sha256` is that process, whatever its file is called, and is reported under `process`. `tlsh` and
 * `build_id` (when the file had them) let the agent also end a similar file: a digest within the
 * threshold of `shared/src/similarity.ts`, or the same build-id.
 */
export const agentFingerprintSchema = z.object({
  process: z.string(),
  sha256: sha256Schema,
  tlsh: similarityDigestSchema.optional(),
  build_id: buildIdSchema.optional(),
});
export type AgentFingerprint = z.infer<typeof agentFingerprintSchema>;

/**
 * Answer data of `GET /api/agent/config`: the team, its contest, the names blocked in it (sorted) and
 * how often the agent polls and beats (ms). `fingerprints` are the learned SHA-256 of the
 * blocked processes' executables (empty when nothing is blocked); `observe` tells the agent to report
 * what runs on the machine (`POST /api/agent/observed`), the contest's `observe_processes` setting
 * (false while the contest is not the active one).
 */
export const agentConfigSchema = z.object({
  team: z.object({ id: rowIntSchema, name: z.string(), levels_id: rowIntSchema }),
  /** The team's contest, without its allowed sites (they come in `network`). */
  contest: contestRowSchema.omit({ allowed_sites: true }),
  blocked: z.array(z.string()),
  fingerprints: z.array(agentFingerprintSchema).default([]),
  observe: z.boolean().default(false),
  /**
   * The contest's «Capturar la pantalla en cada intento» (`capture_screens`): the agent takes a screen
   * capture before and after ending a blocked program and uploads it (`POST /api/agent/capture`). False
   * while the contest is not the active one; absent from servers older than the field (no captures).
   * Captures asked for by «Ver pantalla» (`agent.capture.request`) do not depend on it.
   */
  capture_screens: z.boolean().optional(),
  poll_ms: rowIntSchema,
  heartbeat_ms: rowIntSchema,
  /**
   * Identity of the policy above (contest, active, blocked, fingerprints, observe): equal
   * versions are the same policy. The agent acknowledges the version it applied on the push channel.
   */
  policy_version: z.string().default(''),
  /**
   * The contest's network policy (docs/design.md section 6a), which the agent puts in force in the machine's
   * firewall (its own rules); `allowed` is empty while the contest is not the active one or has no list.
   */
  network: agentNetworkPolicySchema.default({ version: 0, allowed: [] }),
});
export type AgentConfig = z.infer<typeof agentConfigSchema>;

/**
 * Handshake `auth` of an agent's socket on the `/agent` namespace: its team's agent key,
 * nothing else. A wrong, revoked or regenerated key is refused with `unauthorized`.
 */
export const agentSocketAuthSchema = z.object({ key: z.string().min(1).max(100) }).strict();
export type AgentSocketAuth = z.infer<typeof agentSocketAuthSchema>;

/** Most executables one `POST /api/agent/observed` may carry. */
export const AGENT_MAX_OBSERVED_BATCH = 500;

/**
 * One distinct executable that started on the team's machine (what ran in the lab): its
 * file name and fingerprint (null when the agent could not read the file), when the agent first and
 * last saw it start (the agent's clock, ISO 8601, within the attempts' window) and how many starts
 * this report adds (1 or more). Never arguments, window titles or files (agent/README.md).
 */
export const agentObservedProcessSchema = z
  .object({
    name: printableText(255).min(1, { error: MESSAGES.required }),
    sha256: sha256Schema.nullable(),
    /** Similarity digest of the file (absent from older agents, or when the file has none). */
    tlsh: similarityDigestSchema.optional(),
    /** ELF build-id of the file, when it has one. */
    build_id: buildIdSchema.optional(),
    /**
     * The executable's full path at its latest start (at most `OBSERVED_PATH_MAX` characters; absent
     * from older agents or when unknown): where a «nuevo» program lies on the machine.
     */
    path: printableText(OBSERVED_PATH_MAX).optional(),
    first_seen: occurredAtSchema,
    last_seen: occurredAtSchema,
    starts: integerSchema({ min: 1, max: 1_000_000 }),
    /**
     * What ran it when a loader or an interpreter did (`python3`; at most 64 characters): `name` is
     * then the program's file (`chatgpt.py`), not the interpreter's.
     */
    via: printableText(64).min(1).optional(),
  })
  .refine((row) => Date.parse(row.first_seen) <= Date.parse(row.last_seen), {
    error: 'last_seen: anterior a first_seen',
    path: ['last_seen'],
  });
export type AgentObservedProcess = z.infer<typeof agentObservedProcessSchema>;

/**
 * Body of `POST /api/agent/observed`: 1 to `AGENT_MAX_OBSERVED_BATCH` executables, and the machine's
 * host name (at most 255 characters; absent from older agents): the machine a «nuevo» program ran on.
 */
export const agentObservedBodySchema = z.object({
  observed: batchOf(agentObservedProcessSchema, AGENT_MAX_OBSERVED_BATCH, 'programas'),
  hostname: printableText(255).optional(),
});
export type AgentObservedBody = z.infer<typeof agentObservedBodySchema>;

/**
 * Answer data of `POST /api/agent/observed`: how many rows were stored (0 when the team's contest is
 * not active or its `observe_processes` is off: the agent then stops reporting at its next config).
 */
export const agentObservedResultSchema = z.object({ stored: rowIntSchema });
export type AgentObservedResult = z.infer<typeof agentObservedResultSchema>;

/** Body of `POST /api/agent/heartbeat` (all optional; for the logs and the audit). */
export const agentHeartbeatSchema = z
  .object({
    hostname: printableText(255).optional(),
    version: printableText(50).optional(),
    /** The machine's system, e.g. `linux 6.1.0` (the lab board). */
    os: printableText(100).optional(),
    /** The agent's clock now (ISO 8601), for the lab board's clock offset. */
    clock: z.iso.datetime({ offset: true }).optional(),
    /** The `policy_version` the agent applies now. */
    policy_version: printableText(64).optional(),
    /**
     * The network policy version in force on the machine (0: none, its rules lifted), and
     * why the last one could not be put in force (Spanish, e.g. «No se encontró nft»), if it failed.
     */
    network_version: integerSchema({ min: 0, max: 2_147_483_647 }).optional(),
    network_error: printableText(300).optional(),
    /**
     * The allowed host names its policy in force left out because they did not resolve (absent or
     * empty: every one resolved); the first `NETWORK_UNRESOLVED_MAX`, each a host name (at most 253).
     * The agent resolves them again every little while and sends the list as it stands.
     */
    network_unresolved: networkUnresolvedSchema.optional(),
    /**
     * How the policy in force filters an allowed host name: `name` by the name itself (Linux: TLS SNI
     * and HTTP Host through the agent's local filter, DNS through its own forwarder), `address` only by
     * the addresses the name resolved to (Windows: its firewall cannot read SNI). Absent from older
     * agents; agent/README.md says what each one enforces.
     */
    network_filter: z.enum(NETWORK_FILTERS).optional(),
  })
  .default({});
export type AgentHeartbeat = z.infer<typeof agentHeartbeatSchema>;

/**
 * Answer data of `POST /api/generateAgentKey/{teamId}`: the new key, shown once (the server keeps only
 * its SHA-256, docs/design.md section 6), the team it belongs to, and `public_url`: the address the lab
 * machines reach the server at (the server's `PUBLIC_URL` setting, an origin such as
 * `http://192.168.1.10:3000`), which the key dialog puts in the install commands; null when it is not
 * set (the dialog then offers the browser's address and lets the admin type another).
 */
export const agentKeySchema = z.object({
  key: z.string(),
  teams_id: rowIntSchema,
  public_url: z.string().nullable(),
});
export type AgentKey = z.infer<typeof agentKeySchema>;
