#!/usr/bin/env bash
# MCP benchmark: sets up what is missing, starts a MongoDB-wire server on
# loopback, runs bench/mcp.bench.ts against it (the embedded default runs in
# the benchmark's own process) and stops the server. Knobs: BENCH_ROUNDS
# (500 timed pairs per figure), BENCH_SUBTASKS (20 in the read task).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash infra/setup.sh

name="${BENCH_INFRA_NAME:-mcp}"
trap 'bash infra/mongo.sh stop "$name" || true' EXIT
BENCH_MONGO_URL="$(bash infra/mongo.sh start "$name")"
export BENCH_MONGO_URL
echo "bench server: mongo $BENCH_MONGO_URL" >&2

node_modules/.bin/tsx bench/mcp.bench.ts "$@"
