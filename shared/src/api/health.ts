import { z } from 'zod';
import { defineRoute } from './route.js';

/**
 * Answer of `GET /api/health`, with status 200 when everything answers and 503 otherwise (then
 * `success` is false and `message` names what is down).
 */
export const healthReplySchema = z.object({
  success: z.boolean(),
  data: z.object({ database: z.enum(['ok', 'down']), redis: z.enum(['ok', 'down', 'off']) }),
  message: z.string(),
});
export type HealthReply = z.infer<typeof healthReplySchema>;

/** The process's health (docs/design.md section 4, beyond the spec): anonymous. */
export const healthRoutes = {
  /** Whether this process reaches MySQL and, with `REDIS_URL`, Redis; 503 while either is down. */
  check: defineRoute({
    method: 'GET',
    path: '/api/health',
    access: 'public',
    tag: 'salud',
    summary: 'Estado del servidor',
    reply: healthReplySchema,
    replies: { 503: healthReplySchema },
  }),
} as const;
