import type { FastifyInstance } from 'fastify';

/** A contest's statistics and report (shared/src/api/stats.ts, issue 13). */
export default async function statsRoutes(_app: FastifyInstance): Promise<void> {}
