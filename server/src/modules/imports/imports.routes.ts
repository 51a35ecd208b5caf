import type { FastifyInstance } from 'fastify';

/** Bulk import of teams and members (shared/src/api/imports.ts, issue 13). */
export default async function importsRoutes(_app: FastifyInstance): Promise<void> {}
