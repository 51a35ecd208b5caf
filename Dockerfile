# The app image for docker-compose.yml: serves web + API on 3000 from compiled JavaScript
# (`node server/dist/server.js`, as `npm start` runs it once built; no tsx, no TypeScript at run time).

# The manifests both stages install from: every workspace's package.json, which `npm ci` checks
# against the lockfile.
FROM node:20-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY web/package.json web/
COPY agent/package.json agent/
COPY testkit/package.json testkit/
COPY bench/package.json bench/

# Build stage: every dependency (esbuild, Vite), then web/dist and server/dist (scripts/build.mjs;
# --force: whatever dates the copied files carry, both are built here).
FROM manifests AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build.mjs --force

# Run stage: the server workspace's npm packages only (the bundle inlines our own code, the
# migrations and @concurso/shared; build and test tools stay behind) and the two compiled outputs,
# side by side as in the repository (the server finds web/dist from its own folder).
FROM manifests
ENV NODE_ENV=production
RUN npm ci --omit=dev --workspace server --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/server/dist server/dist
COPY --from=build /app/web/dist web/dist
# The server runs as the image's unprivileged `node` user: it owns only the data folder (uploads and
# the generated secret), never the code it runs.
RUN mkdir -p /data && chown node:node /data
ENV PORT=3000 DATA_DIR=/data
# The old generation capped at 320 MB keeps the server under 400 MB of RSS; a 256 MB cap held
# a 2,000-screen connection storm with 2,000 attempts/s and a 5,000-row import (bench/BENCHMARKS.md,
# "Heap policy"). `-e NODE_OPTIONS=…` replaces it.
ENV NODE_OPTIONS=--max-old-space-size=320
VOLUME /data
USER node
EXPOSE 3000
CMD ["node", "server/dist/server.js"]
