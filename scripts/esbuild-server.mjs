// How the server is bundled by esbuild: for scripts/build.mjs (server/dist/) and for the attempts'
// worker thread run from the sources (server/src/modules/agent/attempt-thread.ts bundles
// attempt-worker.ts with the same options when the tests or `npm run dev` start it).

/** Options of every server bundle: ESM for Node 20. */
export const SERVER_BUILD_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // MikroORM and our errors read constructor names; bundling may rename clashing classes otherwise.
  keepNames: true,
  logLevel: 'warning',
};

/**
 * esbuild plugin: every bare import (an npm package or `node:` module) stays external, except the
 * workspaces `@concurso/*`, which are TypeScript source and must be bundled.
 */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (resolved) =>
      resolved.path.startsWith('@concurso/') ? undefined : { path: resolved.path, external: true },
    );
  },
};

/**
 * esbuild plugin for the worker bundles: our own files (relative imports and the `@concurso/*`
 * workspaces) are marked free of side effects, so a module of which nothing is used is left out
 * whole (esbuild's `sideEffects: false`, as a package.json may say of a package). The attempts' worker
 * needs a few statement builders of the modules it imports through their index.ts, not their routes,
 * plugins and push: with them it loaded socket.io, Redis, fastify and argon2 besides, 68 MB against 45.
 */
const ownFilesPure = {
  name: 'own-files-pure',
  setup(b) {
    const again = Symbol('own-files-pure');
    b.onResolve({ filter: /^(\.|@concurso\/)/ }, async (args) => {
      if (args.pluginData === again) return undefined;
      const resolved = await b.resolve(args.path, {
        importer: args.importer,
        resolveDir: args.resolveDir,
        kind: args.kind,
        pluginData: again,
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, namespace: resolved.namespace, sideEffects: false };
    });
  },
};

/** Plugins of the server's own entry points (server.js, seed-demo.js). */
export const SERVER_PLUGINS = [externalPackages];

/** Plugins of the worker threads' entry points (attempt-worker.js). */
export const WORKER_PLUGINS = [ownFilesPure, externalPackages];
