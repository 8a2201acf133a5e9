# Fray server image. Build: docker build -t fray .   Run: docker compose up (docker-compose.yml)
#
# Three stages: `build` installs every dependency and compiles (TypeScript to dist/, the web app
# with Vite, the Prisma client); `deps` installs the production dependencies alone; the final
# image takes those and the compiled files, and nothing else: no dev dependencies, no sources, no
# benchmark (apps/bench), no compiler. It runs as the unprivileged `node` user.

# ---- build: all dependencies, then `turbo run build` for the server and what it depends on
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc tsconfig.base.json turbo.json ./
COPY packages ./packages
COPY apps ./apps
COPY prisma ./prisma
# `npm install` rather than `npm ci`: it also resolves turbo's binary for this platform should the
# lockfile lack it (README, "Development")
RUN npm install --no-audit --no-fund
RUN npx turbo run build --filter=@fray/server

# ---- deps: production dependencies only, for the server's workspaces (apps/bench is not copied,
# so neither it nor its dependencies are installed); no install scripts (the Prisma client is
# generated in `build` and copied below)
FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/client/package.json packages/client/
COPY packages/engine/package.json packages/engine/
COPY packages/protocol/package.json packages/protocol/
COPY packages/rulesets/package.json packages/rulesets/
COPY packages/runtime/package.json packages/runtime/
COPY packages/store/package.json packages/store/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm install --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# ---- the image: node, the production node_modules, the compiled packages, the migrations
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 FRAY_DATA_DIR=/data
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/packages/client/package.json /app/packages/client/
COPY --from=build /app/packages/client/dist /app/packages/client/dist
COPY --from=build /app/packages/engine/package.json /app/packages/engine/
COPY --from=build /app/packages/engine/dist /app/packages/engine/dist
COPY --from=build /app/packages/protocol/package.json /app/packages/protocol/
COPY --from=build /app/packages/protocol/dist /app/packages/protocol/dist
COPY --from=build /app/packages/rulesets/package.json /app/packages/rulesets/
COPY --from=build /app/packages/rulesets/dist /app/packages/rulesets/dist
COPY --from=build /app/packages/runtime/package.json /app/packages/runtime/
COPY --from=build /app/packages/runtime/dist /app/packages/runtime/dist
COPY --from=build /app/packages/store/package.json /app/packages/store/
COPY --from=build /app/packages/store/dist /app/packages/store/dist
COPY --from=build /app/apps/server/package.json /app/apps/server/
COPY --from=build /app/apps/server/dist /app/apps/server/dist
COPY --from=build /app/apps/web/package.json /app/apps/web/
COPY --from=build /app/apps/web/dist /app/apps/web/dist
# the migrations, applied at start when the database lacks any (packages/store/src/migrate.ts)
COPY --from=build /app/prisma /app/prisma
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
EXPOSE 3000
USER node
# healthy = GET /health/ready answers 200 (503 while the database or a configured Redis is down, or the process stops); node's fetch, as the slim image
# has no curl
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node directly (not npm) so that SIGTERM reaches the server and it drains and flushes before exiting;
# one V8 background thread, so that a full GC leaves the event loop its core on a small host (raise
# it to cores - 1, at most 4, on a bigger one: apps/server/src/memory.ts, docs/performance.md); no
# memory reducer, whose watchdog otherwise starts a slow memory-reducing full GC about every 100 s
# under load (docs/performance.md, Session 17)
CMD ["node", "--v8-pool-size=1", "--no-memory-reducer", "apps/server/dist/main.js"]
