# syntax=docker/dockerfile:1
# The site's container image (docs/several-machines.md, "Containers").
#
#   docker build -t amora .
#   docker build --build-arg PREVIOUS_IMAGE=amora:<running release> -t amora:<next> .
#   docker run -e DATABASE_URL=postgres://… -p 3000:3000 amora
#
# compose.yaml runs it as three app replicas behind HAProxy, plus the
# migrate step (`npm run migrate`, the same image).

# The image whose hashed files this one keeps (see the stage "previous").
ARG PREVIOUS_IMAGE=build

# --- build: every dependency, the client build, then only production deps ---
FROM node:22-bookworm-slim AS build
WORKDIR /app
# Dependencies first: this layer stays cached while only the source changes.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# vite build: the client in dist/ and the compiled translations in
# messages/paraglide/ (the server's mail and push texts need them).
RUN npm run build && test -f dist/index.html && test -f messages/paraglide/runtime.js
# This release's own hashed files (assets/ and l/<lang>/assets/): the next
# release's image keeps them (PREVIOUS_IMAGE below). Outside dist/, so not served.
RUN find dist -path '*/assets/*' -type f > .release-assets
# The runtime needs no build tools: drop the dev dependencies (tsx, which
# runs the TypeScript server, is a production dependency).
RUN npm prune --omit=dev --no-audit --no-fund

# --- previous: the release being replaced, for its hashed files ---
# A rolling deploy serves pages of both releases for a while: a page that an
# old machine sent asks for its own hashed scripts, maybe from a new machine.
# With --build-arg PREVIOUS_IMAGE=<the running image>, the new image serves
# that release's hashed files too (only its own, listed in .release-assets,
# not those it kept from the one before). Without it, this build's own stage
# stands in and nothing is added.
FROM ${PREVIOUS_IMAGE} AS previous

# --- runtime: the built client, the server source, production deps ---
FROM node:22-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data
COPY --from=build --chown=node:node /app /app
RUN --mount=type=bind,from=previous,source=/app,target=/previous \
    cd /previous && if [ -f .release-assets ]; then \
      while read -r f; do [ -e "/app/$f" ] || cp --parents "$f" /app/; done < .release-assets; \
      chown -R node:node /app/dist; fi
# DATA_DIR: PGlite's files when no DATABASE_URL is set, and pictures on local
# disk when object storage is not configured. Owned by the unprivileged user.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# Liveness only (/healthz asks nothing else); a load balancer asks /readyz.
# No curl in the slim image: node's own fetch.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself, in exec form, so SIGTERM reaches it and it drains
# (api/http/drain.ts). `npm start` would run node under `sh -c`, which does
# not pass SIGTERM on. The same command as package.json's "start" script
# (tools/deploy.test.ts checks it). Run with an init (`docker run --init`,
# compose's `init: true`) so node is PID 1's direct child.
CMD ["node", "--import", "tsx", "api/start.ts"]
