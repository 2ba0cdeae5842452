# syntax=docker/dockerfile:1
# Build stage: install every dependency and compile TypeScript (npm run build).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# tsx (the project's entry runner, as in `npm run serve`) is a dev dependency, so no prune.
RUN npm run build

# Runtime stage: Node 20 on Debian bookworm-slim, Debian's Chromium, CJK and
# emoji fonts so screenshots of Chinese answers and of 🚀 render glyphs, not boxes.
FROM node:20-bookworm-slim AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium fonts-noto-cjk fonts-noto-color-emoji ca-certificates tini \
  && rm -rf /var/lib/apt/lists/*
# Chromium's managed policy (as infra/setup.sh installs it on a host): without it the
# browser's own traffic (prediction, sync, updates) goes out through the customers' proxies.
COPY infra/chromium-policy.json /etc/chromium/policies/managed/ai-answer-monitor.json
ENV NODE_ENV=production \
    CHROMIUM_PATH=/usr/bin/chromium \
    PORT=3000 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
# The same entry as `npm run serve`; SERVICES decides which services this node runs.
CMD ["node", "dist/bin/serve.js"]
