import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isIP } from 'node:net';
import { z } from 'zod';
import {
  AGENT_OFFLINE_AFTER_MS,
  FINGERPRINT_QUORUM_DEFAULT,
  OBSERVED_LIMITS,
  DEFAULT_MAX_UPLOAD_BYTES,
  IMPORT_RECEIVE_TIMEOUT_MS,
  LOGIN_LIMITS,
  passwordProblem,
} from '@concurso/shared';

/**
 * Settings of docs/design.md section 7, read from the environment and checked by one zod schema; every
 * variable is optional.
 * `jwtSecret` is generated once and kept in `DATA_DIR/jwt-secret` when `JWT_SECRET` is unset (`withJwtSecret`),
 * so tokens survive a restart and every process on one data folder agrees.
 */
export interface AppConfig {
  /** TCP port, default 3000. */
  port: number;
  /** `mysql://user:pass@host:port/db`; the database is created when missing. */
  databaseUrl: string;
  /**
   * false when `DATABASE_URL` was not set (the default address is used, and `npm start` may run the
   * embedded database, docs/design.md section 7); absent or true: it was given, never an embedded one.
   */
  databaseUrlGiven?: boolean;
  /** Unset: one process, in-memory Socket.IO adapter. */
  redisUrl?: string;
  jwtSecret: string;
  /** Token lifetime in seconds (12 h: a contest day). */
  jwtExpiresInS: number;
  /** Uploads and the generated secret live here. */
  dataDir: string;
  adminUsername: string;
  adminPassword?: string;
  logLevel: string;
  /** Built web client to serve, when present (`web/dist`). */
  webDistDir?: string;
  /**
   * Addresses (IPs, CIDRs or `loopback`) of the reverse proxies whose `X-Forwarded-*` headers are
   * believed (`TRUST_PROXY`); empty: none, the client is the TCP peer.
   */
  trustProxy: string[];
  /** Failed logins per client address per minute (`LOGIN_RATE_LIMIT_MAX`). */
  loginRateLimitMax: number;
  /** Failed logins per account from one client address per hour (`LOGIN_ACCOUNT_LIMIT_MAX`). */
  loginAccountLimitMax: number;
  /** Most bytes of an uploaded exercise PDF (`MAX_UPLOAD_BYTES`, default 20 MB). */
  maxUploadBytes: number;
  /** An agent silent this long (ms) shows offline on the boards (`AGENT_OFFLINE_AFTER_MS`, default 30 s). */
  agentOfflineAfterMs: number;
  /**
   * Different teams of the active contest whose agents must claim a fingerprint before it applies to
   * every machine without an admin's confirmation (`FINGERPRINT_QUORUM`, default 3; docs/design.md 6a).
   */
  fingerprintQuorum: number;
  /** Longest a team import's upload may take, in ms (`IMPORT_RECEIVE_TIMEOUT_MS` of shared; tests shorten it). */
  importReceiveTimeoutMs: number;
  /**
   * Bounds of one team's observed reports (`OBSERVED_LIMITS` of shared): distinct programs
   * per contest, and reports per minute. Not environment variables: tests change them to reach one
   * bound without the other.
   */
  observedMaxPerTeam: number;
  observedReportsPerMinute: number;
  /**
   * The address the lab machines reach this server at (`PUBLIC_URL`), as an origin
   * (`http://192.168.1.10:3000`, no path); the key dialog puts it in the agent's install commands.
   * Undefined when unset: the dialog offers the admin's browser address, which behind a proxy or on
   * the server itself (`localhost`) is not the lab's.
   */
  publicUrl?: string;
}

const DEFAULT_DATABASE_URL = 'mysql://root@127.0.0.1:3306/concurso';

/** Raised for a bad environment variable; its message is one Spanish line naming the variable. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Reads the secret kept in the data folder, or creates it (mode 0600). */
function dataDirSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length >= 32) return secret;
  } catch {
    // Missing: created below.
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

/** Names proxy-addr understands for whole ranges (Fastify's `trustProxy`). */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IPv4/IPv6 address, optionally with a `/prefix`, or one of `PROXY_RANGES`. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  if (extra !== undefined || !address || isIP(address) === 0) return false;
  if (prefix === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= max;
}

const wholeNumber = (name: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: `${name} debe ser un número entero.` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: `${name} debe estar entre ${min} y ${max}.` });

const urlOf = (name: string, protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      { error: `${name} debe ser una URL ${protocols.map((p) => p.replace(':', '://…')).join(' o ')}.` },
    );

/**
 * `PUBLIC_URL`: an http(s) address with nothing after the host and port (the agent talks to the
 * server's root: `/api/…`, `/socket.io`), answered as its origin (`http://10.0.0.5:3000/` → without the
 * slash).
 */
const publicUrl = z
  .string()
  .trim()
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (
          ['http:', 'https:'].includes(url.protocol) &&
          url.pathname === '/' &&
          !url.search &&
          !url.hash &&
          !url.username &&
          !url.password
        );
      } catch {
        return false;
      }
    },
    {
      error:
        'PUBLIC_URL debe ser la dirección http:// o https:// con la que las máquinas del laboratorio llegan al servidor, sin ruta (p. ej. http://192.168.1.10:3000).',
    },
  )
  .transform((value) => new URL(value).origin);

/**
 * The environment of docs/design.md section 7, parsed once: every variable optional, an empty one counts
 * as unset. Checked here so a bad value stops the start with one line instead of failing later.
 */
const envSchema = z.object({
  PORT: wholeNumber('PORT', 0, 65_535).default(3000),
  DATABASE_URL: urlOf('DATABASE_URL', ['mysql:', 'mariadb:']).default(DEFAULT_DATABASE_URL),
  REDIS_URL: urlOf('REDIS_URL', ['redis:', 'rediss:']).optional(),
  JWT_SECRET: z
    .string()
    .min(32, { error: 'JWT_SECRET debe tener al menos 32 caracteres (o no la defina: se genera una).' })
    .optional(),
  DATA_DIR: z.string().default('data'),
  ADMIN_USERNAME: z
    .string()
    .trim()
    .regex(/^[\w.@-]{1,100}$/, { error: 'ADMIN_USERNAME: letras, dígitos, ".", "@", "-" o "_" (hasta 100).' })
    .default('admin'),
  ADMIN_PASSWORD: z.string().optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'LOG_LEVEL debe ser fatal, error, warn, info, debug, trace o silent.',
    })
    .default('info'),
  TRUST_PROXY: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .refine((entries) => entries.every(isProxyAddress), {
      error:
        'TRUST_PROXY debe ser una lista de direcciones IP o redes (p. ej. 172.28.0.10 o 10.0.0.0/8) separadas por comas, o loopback.',
    })
    .optional(),
  LOGIN_RATE_LIMIT_MAX: wholeNumber('LOGIN_RATE_LIMIT_MAX', 1).default(LOGIN_LIMITS.perAddress.max),
  LOGIN_ACCOUNT_LIMIT_MAX: wholeNumber('LOGIN_ACCOUNT_LIMIT_MAX', 1).default(
    LOGIN_LIMITS.perAccountAddress.max,
  ),
  MAX_UPLOAD_BYTES: wholeNumber('MAX_UPLOAD_BYTES', 1024).default(DEFAULT_MAX_UPLOAD_BYTES),
  AGENT_OFFLINE_AFTER_MS: wholeNumber('AGENT_OFFLINE_AFTER_MS', 1_000).default(AGENT_OFFLINE_AFTER_MS),
  FINGERPRINT_QUORUM: wholeNumber('FINGERPRINT_QUORUM', 1).default(FINGERPRINT_QUORUM_DEFAULT),
  PUBLIC_URL: publicUrl.optional(),
});

/**
 * Parses `env` with {@link envSchema}; an empty variable counts as unset.
 * @throws ConfigError with the first problem, naming the variable.
 */
function parseEnv(env: NodeJS.ProcessEnv) {
  const present = Object.fromEntries(
    Object.entries(env).filter(
      ([key, value]) => key in envSchema.shape && value !== undefined && value !== '',
    ),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Configuración no válida: ${issue.message}`);
  }
  const values = parsed.data;
  if (values.ADMIN_PASSWORD !== undefined) {
    const problem = passwordProblem(values.ADMIN_PASSWORD, values.ADMIN_USERNAME);
    if (problem) throw new ConfigError(`Configuración no válida: ADMIN_PASSWORD: ${problem}`);
  }
  return values;
}

/**
 * The configuration as the environment gives it: `jwtSecret` is absent when `JWT_SECRET` is unset
 * (`withJwtSecret` then reads or creates the data folder's).
 */
export type LoadedConfig = Omit<AppConfig, 'jwtSecret'> & { jwtSecret?: string };

/**
 * Builds the configuration from `env` (default `process.env`), with `overrides` on top (tests). Reads
 * and writes no file: a start that needs the data folder's secret asks `withJwtSecret` for it.
 * @throws ConfigError when a variable holds a bad value (one Spanish line naming it).
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<AppConfig> = {},
): LoadedConfig {
  const values = parseEnv(env);
  const dataDir = path.resolve(overrides.dataDir ?? values.DATA_DIR);
  return {
    port: values.PORT,
    databaseUrl: values.DATABASE_URL,
    databaseUrlGiven: Boolean(env.DATABASE_URL),
    redisUrl: values.REDIS_URL,
    jwtSecret: values.JWT_SECRET,
    jwtExpiresInS: 12 * 60 * 60,
    dataDir,
    adminUsername: values.ADMIN_USERNAME,
    adminPassword: values.ADMIN_PASSWORD,
    logLevel: values.LOG_LEVEL,
    trustProxy: values.TRUST_PROXY ?? [],
    loginRateLimitMax: values.LOGIN_RATE_LIMIT_MAX,
    loginAccountLimitMax: values.LOGIN_ACCOUNT_LIMIT_MAX,
    maxUploadBytes: values.MAX_UPLOAD_BYTES,
    agentOfflineAfterMs: values.AGENT_OFFLINE_AFTER_MS,
    fingerprintQuorum: values.FINGERPRINT_QUORUM,
    importReceiveTimeoutMs: IMPORT_RECEIVE_TIMEOUT_MS,
    observedMaxPerTeam: OBSERVED_LIMITS.maxPerTeam,
    observedReportsPerMinute: OBSERVED_LIMITS.reportsPerMinute,
    publicUrl: values.PUBLIC_URL,
    ...overrides,
  };
}

/**
 * The configuration with its JWT secret: the one given (`JWT_SECRET`), else the one kept in
 * `DATA_DIR/jwt-secret`, created (48 random bytes, mode 0600) on the first start, so tokens survive a
 * restart and every process on one data folder agrees (docs/design.md section 7).
 */
export function withJwtSecret(config: LoadedConfig): AppConfig {
  return { ...config, jwtSecret: config.jwtSecret ?? dataDirSecret(config.dataDir) };
}
