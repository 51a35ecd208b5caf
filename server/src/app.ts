import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyJwt from '@fastify/jwt';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { MikroORM } from '@mikro-orm/mysql';
import { MESSAGES } from '@concurso/shared';
import type { AppConfig } from './config.js';
import ormPlugin from './plugins/orm.js';
import errorsPlugin from './plugins/errors.js';
import guardPlugin from './plugins/guard.js';
import webPlugin from './plugins/web.js';
import socketPlugin from './realtime/socket.js';
import agentPresencePlugin from './realtime/agent-presence.js';
import authRoutes from './modules/auth/auth.routes.js';
import boardRoutes from './modules/board/board.routes.js';
import agentRoutes from './modules/agent/agent.routes.js';
import healthRoutes from './modules/health/health.routes.js';
import contestsRoutes from './modules/contests/contests.routes.js';
import levelsRoutes from './modules/levels/levels.routes.js';
import schoolsRoutes from './modules/schools/schools.routes.js';
import departamentsRoutes from './modules/departaments/departaments.routes.js';
import careersRoutes from './modules/careers/careers.routes.js';
import coachesRoutes from './modules/coaches/coaches.routes.js';
import processesRoutes from './modules/processes/processes.routes.js';
import teamsRoutes from './modules/teams/teams.routes.js';
import membersRoutes from './modules/members/members.routes.js';
import usersRoutes from './modules/users/users.routes.js';
import exercisesRoutes from './modules/exercises/exercises.routes.js';
import logsRoutes from './modules/logs/logs.routes.js';
import fastifyMultipart from '@fastify/multipart';
import './plugins/access.js';

/** Where `npm run build -w web` writes the client. */
export const WEB_DIST_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface BuildAppOptions {
  config: AppConfig;
  /** An initialised ORM on a migrated database (see `openDatabase`); closed with the app. */
  orm: MikroORM;
  logger?: FastifyServerOptions['logger'];
}

/**
 * Builds the Fastify app, registering plugins in order as in fastify/demo: external plugins
 * (JWT, rate limit, OpenAPI), then the app's own (ORM context, error handler, role guard, push
 * channel, web client), then one route module per resource under `/api`.
 */
export async function buildApp({ config, orm, logger = false }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // Behind nginx in docker-compose the client address comes from X-Forwarded-For.
    trustProxy: true,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // External plugins.
  // gzip only: brotli on the fly costs the CPU the live board needs; the web client's JS is ~200 KB gzip.
  await app.register(fastifyCompress, { encodings: ['gzip'], threshold: 1024 });
  await app.register(fastifyJwt, { secret: config.jwtSecret });
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      success: false,
      message: context.statusCode === 429 ? MESSAGES.loginRateLimited : MESSAGES.tooManyRequests,
    }),
  });
  await app.register(fastifyMultipart, { limits: { fileSize: config.maxUploadBytes, files: 1 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Concurso de programación: API',
        description: 'API del tablero en vivo, los catálogos y el agente (SPEC.md sección 7, DESIGN.md).',
        version: '0.1.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });

  // The app's own plugins.
  await app.register(ormPlugin, { orm });
  await app.register(errorsPlugin);
  await app.register(guardPlugin);
  await app.register(socketPlugin, { redisUrl: config.redisUrl });
  await app.register(agentPresencePlugin, { offlineAfterMs: config.agentOfflineAfterMs });
  await app.register(webPlugin, { root: config.webDistDir });

  // Routes.
  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes, {
        expiresInS: config.jwtExpiresInS,
        loginRateLimitMax: config.loginRateLimitMax,
      });
      await api.register(boardRoutes);
      await api.register(agentRoutes);
      await api.register(contestsRoutes);
      await api.register(levelsRoutes);
      await api.register(schoolsRoutes);
      await api.register(departamentsRoutes);
      await api.register(careersRoutes);
      await api.register(coachesRoutes);
      await api.register(processesRoutes);
      await api.register(teamsRoutes);
      await api.register(membersRoutes);
      await api.register(usersRoutes);
      await api.register(logsRoutes);
      await api.register(exercisesRoutes, { dataDir: config.dataDir, maxUploadBytes: config.maxUploadBytes });
    },
    { prefix: '/api' },
  );

  return app;
}
