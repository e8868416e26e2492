# syntax=docker/dockerfile:1.7
# Gaia translation: translation service (events + RPC; only /healthz and /readyz over HTTP).
# Build from the repository root:  docker build -f docker/translation.Dockerfile -t gaia/translation:<version> .
ARG NODE_IMAGE=node:20.20-bookworm-slim

# 1. build: all dependencies (dev included), compile the workspace.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# 2. prod-deps: production dependencies only.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. runtime: compiled app + production node_modules, unprivileged user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json ./
# tools/build.mjs compiles every app and lib to dist/out; dist/apps/<app>/main.js is the entry point.
COPY --from=build /src/dist/out ./dist/out
COPY --from=build /src/dist/apps/translation ./dist/apps/translation
# Code stays root-owned (read-only for the app). Run as the node image's "node" user (uid/gid 1000),
# numeric so that Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# V8 flags of apps/platform/node-flags.cjs (a larger young generation; tools/node-flags.spec.ts checks they match)
CMD ["node", "--max-semi-space-size=32", "dist/apps/translation/main.js"]
