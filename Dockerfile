# The app image for docker-compose.yml: installs, builds the web client and serves web + API on 3000.
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY server/package.json server/
COPY web/package.json web/
COPY agent/package.json agent/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
# The server runs as the image's unprivileged `node` user: it owns only the data folder (uploads and
# the generated secret), never the code it runs.
RUN mkdir -p /data && chown node:node /data
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data
VOLUME /data
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "server/src/server.ts"]
