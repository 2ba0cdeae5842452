#!/usr/bin/env bash
# API benchmark: sets up what is missing, starts a MongoDB-wire server on
# loopback (as infra/test.sh does), runs bench/api.bench.ts against it and
# stops the server. Knobs: see the header of bench/api.bench.ts (BENCH_*).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash infra/setup.sh

trap 'bash infra/mongo.sh stop bench || true' EXIT
BENCH_MONGO_URL="$(bash infra/mongo.sh start bench)"
export BENCH_MONGO_URL
echo "bench server: mongo $BENCH_MONGO_URL" >&2

node_modules/.bin/tsx bench/api.bench.ts "$@"
