import { z } from 'zod';
import { contestRowSchema } from './catalogs.js';
import { embeddedRowSchema, rowIntSchema } from './common.js';

/**
 * Schemas of a contest's statistics and report: the /home
 * "Estadísticas" panel reads `GET /api/contestStats/{contestId}`, the /contests "Reporte" reads
 * `GET /api/contestReport/{contestId}`. Times are ISO 8601 (UTC); counts are whole numbers.
 */

/**
 * Most points the attempts series has (`attempts_per_minute`): one point per minute covers a contest of
 * up to 6 hours; a longer span widens each point to the next of {@link STATS_BUCKET_STEPS} minutes (then
 * whole days) so the series never has more points than this, and a chart never draws thousands.
 */
export const STATS_MAX_POINTS = 360;

/** The widths a point of the attempts series may have, in minutes (beyond the last: whole days). */
export const STATS_BUCKET_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440] as const;

/** How many processes `top_processes` lists at most (the most attempted first). */
export const STATS_TOP_PROCESSES = 10;

/**
 * One point of the attempts series: `attempts` received (server clock, `received_at`) in the
 * `bucket_minutes` starting at `minute` (ISO 8601, whole minute, UTC).
 */
export const attemptsPointSchema = z.object({ minute: z.string(), attempts: rowIntSchema });
export type AttemptsPoint = z.infer<typeof attemptsPointSchema>;

/** One of the most attempted processes of a contest: the name the agent reported and its attempts. */
export const processAttemptsSchema = z.object({ process: z.string(), attempts: rowIntSchema });
export type ProcessAttempts = z.infer<typeof processAttemptsSchema>;

/** The fields the statistics and the report share (everything but the teams). */
const statsShape = {
  contest: contestRowSchema,
  /**
   * Width of each point of `attempts_per_minute`, in minutes: 1 unless the contest's attempts span
   * more than `STATS_MAX_POINTS` minutes (then the smallest of `STATS_BUCKET_STEPS` that fits).
   */
  bucket_minutes: rowIntSchema,
  /**
   * Attempts per point from the first attempt's minute to the last one's, zero-filled (no gaps),
   * oldest first; empty when the contest has no attempt.
   */
  attempts_per_minute: z.array(attemptsPointSchema),
  /** The `STATS_TOP_PROCESSES` most attempted processes, most attempts first (ties by name). */
  top_processes: z.array(processAttemptsSchema),
  /** Teams blocked now (status Descalificado). */
  teams_blocked: rowIntSchema,
  /** Attempts of the contest (rows of `attempts`). */
  attempts: rowIntSchema,
};

/** Answer of `GET /api/contestStats/{contestId}`: the /home "Estadísticas" panel's data. */
export const contestStatsSchema = z.object({
  ...statsShape,
  /** Teams registered in the contest. */
  teams: rowIntSchema,
});
export type ContestStats = z.infer<typeof contestStatsSchema>;

/** One team of the report: names instead of ids, members counted. */
export const reportTeamSchema = z.object({
  id: rowIntSchema,
  name: z.string(),
  /** The level's name ('Básico'). */
  level: z.string(),
  /** The coach's name. */
  coach: z.string(),
  /** How many members the team has. */
  members: rowIntSchema,
  number_attempts: rowIntSchema,
  /** The team's status now ('Activo' / 'Descalificado'). */
  status: z.string(),
});
export type ReportTeam = z.infer<typeof reportTeamSchema>;

/**
 * One change of a team's status in the contest (a block or an unblock: automatic re-blocks
 * were listed without the unblocks between them): which team, from and to what, when, who did it.
 */
export const reportStatusChangeSchema = z.object({
  /** The team's name. */
  team: z.string(),
  /** The team's level name. */
  level: z.string(),
  /** ISO 8601. */
  at: z.string(),
  /** The status before and after ('Activo', 'Descalificado'). */
  from: embeddedRowSchema('status'),
  to: embeddedRowSchema('status'),
  /** The judge's name; null for an automatic block or when the judge's account was deleted since. */
  user: z.string().nullable(),
  /** True when the server blocked the team on reaching the contest's `max_attempts`. */
  automatic: z.boolean(),
});
export type ReportStatusChange = z.infer<typeof reportStatusChangeSchema>;

/**
 * Answer of `GET /api/contestReport/{contestId}`: the statistics with `teams` as the list of the
 * contest's teams (by level, then name; their count is its length) and every block and unblock,
 * oldest first.
 */
export const contestReportSchema = z.object({
  ...statsShape,
  teams: z.array(reportTeamSchema),
  status_changes: z.array(reportStatusChangeSchema),
});
export type ContestReport = z.infer<typeof contestReportSchema>;
