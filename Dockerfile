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
# tsx runs the TypeScript sources (as `npm start` does); dev dependencies are kept for it
RUN npm ci --include=dev --no-audit --no-fund
ENV HOST=0.0.0.0 PORT=3000 FRAY_DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
EXPOSE 3000
USER node
# node directly (not npm) so that SIGTERM reaches the server and it drains and flushes before exiting
CMD ["node", "--conditions=@fray/source", "--import", "tsx", "apps/server/src/main.ts"]
