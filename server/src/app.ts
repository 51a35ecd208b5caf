import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCompress from '@fastify/compress';
import fastifyJwt from '@fastify/jwt';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { MikroORM } from '@mikro-orm/mysql';
import type { AppConfig } from './config.js';
import ormPlugin from './plugins/orm.js';
import errorsPlugin from './plugins/errors.js';
import guardPlugin from './plugins/guard.js';
import webPlugin from './plugins/web.js';
import securityHeaders from './plugins/security-headers.js';
import socketPlugin from './realtime/socket.js';
import { messagesRoutes } from './modules/messages/index.js';
import { boardPlugin, boardRoutes } from './modules/board/index.js';
import {
  agentChannelPlugin,
  agentKeysPlugin,
  agentPresencePlugin,
  agentRoutes,
  AGENT_SQL_CONNECTIONS,
  heartbeatMsFor,
} from './modules/agent/index.js';
import { authRoutes, staffSessions } from './modules/auth/index.js';
import { knownLevels, levelsRoutes } from './modules/levels/index.js';
import { healthRoutes } from './modules/health/index.js';
import { catalogUsages } from './modules/catalogs/index.js';
import { contestsRoutes, contestUsages, type ContestsRoutesOptions } from './modules/contests/index.js';
import { schoolsRoutes } from './modules/schools/index.js';
import { departamentsRoutes, departamentUsages } from './modules/departaments/index.js';
import { careersRoutes, careerUsages } from './modules/careers/index.js';
import { coachesRoutes } from './modules/coaches/index.js';
import { processesRoutes } from './modules/processes/index.js';
import { fingerprintsRoutes } from './modules/fingerprints/index.js';
import { teamsRoutes, teamUsages } from './modules/teams/index.js';
import { membersRoutes, memberUsages, moveMembersWithTeam } from './modules/members/index.js';
import { usersRoutes } from './modules/users/index.js';
import { exerciseUsages, exercisesRoutes } from './modules/exercises/index.js';
import { logsRoutes } from './modules/logs/index.js';
import { importsRoutes } from './modules/imports/index.js';
import { statsRoutes } from './modules/stats/index.js';
import { observedRoutes } from './modules/observed/index.js';
import { capturesRoutes, screenViewRows } from './modules/captures/index.js';
import { evidenceRoutes } from './modules/evidence/index.js';
import fastifyMultipart from '@fastify/multipart';
import './plugins/access.js';

/** Where `npm run build -w web` writes the client. */
export const WEB_DIST_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface BuildAppOptions {
  config: AppConfig;
  /** An initialised ORM on a migrated database (see `openDatabase`); closed with the app. */
  orm: MikroORM;
  logger?: FastifyServerOptions['logger'];
  /** How `POST /api/networkSitesInfo` resolves host names (default: the system's resolver; tests). */
  siteLookup?: ContestsRoutesOptions['siteLookup'];
}

/**
 * Builds the Fastify app, registering plugins in order as in fastify/demo: external plugins
 * (security headers, JWT, OpenAPI), then the app's own (ORM context, error handler, role guard, push
 * channel: the Socket.IO transport, then the `board` publisher and the agent presence sweeper that
 * push through it; web client), then one route module per resource under `/api`.
 */
export async function buildApp({
  config,
  orm,
  logger = false,
  siteLookup,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // X-Forwarded-For/-Proto are believed only from the proxies named in TRUST_PROXY (the compose
    // nginx); from anyone else a client could pick its own address and dodge the login limits.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Fastify answers HEAD by running the GET handler, and the spec's deletes and toggles are GETs: no
    // route answers HEAD, so a HEAD never changes data (docs/design.md section 4).
    exposeHeadRoutes: false,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // External plugins.
  // gzip only: brotli on the fly costs the CPU the live board needs; the web client's JS is ~200 KB gzip.
  await app.register(fastifyCompress, { encodings: ['gzip'], threshold: 1024 });
  await app.register(securityHeaders);
  await app.register(fastifyJwt, { secret: config.jwtSecret });
  await app.register(fastifyMultipart, { limits: { fileSize: config.maxUploadBytes, files: 1 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Concurso de programación: API',
        description:
          'API del tablero en vivo, los catálogos y el agente (docs/spec.md sección 7, docs/design.md y docs/wire-contract.md en el repositorio).',
        version: '0.1.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  // staticCSP: the documentation page gets a policy that allows its own scripts and styles.
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { docExpansion: 'list' },
    staticCSP: true,
    // Swagger UI sets a few inline styles.
    transformStaticCSP: (header) =>
      header.replace("style-src 'self' https:", "style-src 'self' https: 'unsafe-inline'"),
  });

  // The app's own plugins.
  // The bare pool of the agents' hot paths, sized by the agent module.
  await app.register(ormPlugin, {
    orm,
    databaseUrl: config.databaseUrl,
    sqlConnections: AGENT_SQL_CONNECTIONS,
  });
  await app.register(errorsPlugin);
  // The plugins know no module: app.ts hands them what they check with.
  const sessions = staffSessions(app);
  await app.register(guardPlugin, {
    sessions,
    // `app.agentKeys` is decorated below (it needs the socket); the guard asks it per request.
    agentKeys: { team: (key, address) => app.agentKeys.team(key, address) },
  });
  await app.register(socketPlugin, { redisUrl: config.redisUrl, sessions, levelsExist: knownLevels(orm) });
  await app.register(agentKeysPlugin);
  await app.register(boardPlugin);
  // How the agents' policies are built (heartbeats well within the silent-agent window).
  const policy = {
    quorum: config.fingerprintQuorum,
    heartbeatMs: heartbeatMsFor(config.agentOfflineAfterMs),
  };
  await app.register(agentChannelPlugin, policy);
  await app.register(agentPresencePlugin, { offlineAfterMs: config.agentOfflineAfterMs });
  await app.register(webPlugin, { root: config.webDistDir });

  // What keeps a catalogue row from being deleted: each module counts its own rows that use it, and
  // the catalogues ask through this (they never import the modules above them). The order is the 409
  // message's: 'tiene 2 equipos y 1 ejercicio'.
  const uses = catalogUsages([
    ...teamUsages,
    ...exerciseUsages,
    ...memberUsages,
    ...careerUsages,
    ...departamentUsages,
    ...contestUsages,
  ]);

  // Routes.
  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes, {
        expiresInS: config.jwtExpiresInS,
        limits: { perAddressMax: config.loginRateLimitMax, perAccountMax: config.loginAccountLimitMax },
      });
      await api.register(boardRoutes);
      await api.register(agentRoutes, {
        ...policy,
        offlineAfterMs: config.agentOfflineAfterMs,
        publicUrl: config.publicUrl ?? null,
        databaseUrl: config.databaseUrl,
      });
      await api.register(contestsRoutes, { siteLookup, uses });
      // Catalogues and modules that take no other options (the order is /api/docs' order).
      for (const routes of [levelsRoutes, schoolsRoutes, departamentsRoutes, careersRoutes, coachesRoutes])
        await api.register(routes, { uses });
      await api.register(processesRoutes, { uses });
      await api.register(fingerprintsRoutes, { fingerprintQuorum: config.fingerprintQuorum });
      await api.register(teamsRoutes, { uses, moveMembers: moveMembersWithTeam });
      for (const routes of [membersRoutes, usersRoutes]) await api.register(routes);
      // /bitacora lists the judges' «Ver pantalla», which the captures module records.
      await api.register(logsRoutes, { screenViews: screenViewRows });
      await api.register(importsRoutes, { receiveTimeoutMs: config.importReceiveTimeoutMs });
      await api.register(statsRoutes);
      await api.register(messagesRoutes);
      await api.register(observedRoutes, {
        fingerprintQuorum: config.fingerprintQuorum,
        maxPerTeam: config.observedMaxPerTeam,
        reportsPerMinute: config.observedReportsPerMinute,
      });
      await api.register(exercisesRoutes, { dataDir: config.dataDir, maxUploadBytes: config.maxUploadBytes });
      await api.register(capturesRoutes, { dataDir: config.dataDir });
      await api.register(evidenceRoutes, { dataDir: config.dataDir });
    },
    { prefix: '/api' },
  );

  return app;
}
