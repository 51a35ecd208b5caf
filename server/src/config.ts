import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AGENT_OFFLINE_AFTER_MS, DEFAULT_MAX_UPLOAD_BYTES } from '@concurso/shared';

/**
 * Settings of DESIGN.md section 7, read from the environment; every variable is optional.
 * `jwtSecret` is generated once and kept in `DATA_DIR/jwt-secret` when `JWT_SECRET` is unset,
 * so tokens survive a restart and every process on one data folder agrees.
 */
export interface AppConfig {
  /** TCP port, default 3000. */
  port: number;
  /** `mysql://user:pass@host:port/db`; the database is created when missing. */
  databaseUrl: string;
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
  /** Login attempts per client address per minute. */
  loginRateLimitMax: number;
  /** Most bytes of an uploaded exercise PDF (`MAX_UPLOAD_BYTES`, default 20 MB). */
  maxUploadBytes: number;
  /** An agent silent this long (ms) shows offline on the boards (`AGENT_OFFLINE_AFTER_MS`, default 30 s). */
  agentOfflineAfterMs: number;
}

export const DEFAULT_DATABASE_URL = 'mysql://root@127.0.0.1:3306/concurso';

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

/** Builds the configuration from `env` (default `process.env`), with `overrides` on top (tests). */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<AppConfig> = {},
): AppConfig {
  const dataDir = path.resolve(overrides.dataDir ?? env.DATA_DIR ?? 'data');
  const port = Number(env.PORT ?? 3000);
  return {
    port: Number.isInteger(port) && port >= 0 ? port : 3000,
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    redisUrl: env.REDIS_URL || undefined,
    jwtSecret: overrides.jwtSecret ?? (env.JWT_SECRET || dataDirSecret(dataDir)),
    jwtExpiresInS: 12 * 60 * 60,
    dataDir,
    adminUsername: env.ADMIN_USERNAME || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    loginRateLimitMax: Number(env.LOGIN_RATE_LIMIT_MAX ?? 10),
    maxUploadBytes: Number(env.MAX_UPLOAD_BYTES ?? DEFAULT_MAX_UPLOAD_BYTES),
    agentOfflineAfterMs: Number(env.AGENT_OFFLINE_AFTER_MS ?? AGENT_OFFLINE_AFTER_MS),
    ...overrides,
  };
}
