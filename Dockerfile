# Fray server. Build: docker build -t fray .   Run: docker compose up
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# the workspace manifests first, so the dependency layer is cached
COPY package.json package-lock.json .npmrc ./
COPY packages ./packages
COPY apps ./apps
COPY prisma ./prisma
COPY tsconfig.base.json turbo.json ./
# `npm install` rather than `npm ci`: the lockfile is written on a machine whose registry serves no
# turbo binaries for other platforms, so it cannot list them (npm resolves them here).
RUN npm install --include=dev --no-audit --no-fund
# compile every workspace (TypeScript to dist/, the web app with Vite)
RUN npx turbo run build
ENV HOST=0.0.0.0 PORT=3000 FRAY_DATA_DIR=/data FRAY_WEB_BUILD=0
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
EXPOSE 3000
USER node
# node directly (not npm) so that SIGTERM reaches the server and it drains and flushes before exiting;
# one V8 background thread, so that a full GC leaves the event loop its core on a small host (raise
# it to cores - 1, at most 4, on a bigger one: apps/server/src/memory.ts, docs/performance.md); no
# memory reducer, whose watchdog otherwise starts a slow memory-reducing full GC about every 100 s
# under load (docs/performance.md, Session 17)
CMD ["node", "--v8-pool-size=1", "--no-memory-reducer", "apps/server/dist/main.js"]
