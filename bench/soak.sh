#!/usr/bin/env bash
# Soak benchmark: sets up what is missing, builds the nodes' entry into
# var/build (the cluster's nodes run the compiled bin/serve.js), starts a NATS
# server and a MongoDB-wire server on loopback (as bench/pipeline.sh does),
# runs bench/soak.bench.ts against them and stops both servers. Options pass
# through: --minutes N (fractions allowed), --every S, --api-prompts N,
# --web-prompts N, --latency MS, --failure-rate F, --sample S (see
# bench/soak/options.ts and docs/benchmarks.md). BENCH_INFRA_NAME (default
# soak) names the servers' state folders under var/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash infra/setup.sh
node_modules/.bin/tsc -p tsconfig.build.json --outDir var/build

name="${BENCH_INFRA_NAME:-soak}"
trap 'bash infra/nats.sh stop "$name" || true; bash infra/mongo.sh stop "$name" || true' EXIT
BENCH_NATS_URL="$(bash infra/nats.sh start "$name")"
BENCH_MONGO_URL="$(bash infra/mongo.sh start "$name")"
export BENCH_NATS_URL BENCH_MONGO_URL

# The database's processes and data file, so the soak samples them too.
pids=""
[ -s "var/mongo-$name/pid" ] && pids="mongo-server:$(cat "var/mongo-$name/pid")"
pids="$pids nats:$(cat "var/nats-$name/pid" 2>/dev/null || true)"
export BENCH_DB_PIDS="$pids"
export BENCH_DB_FILE="$root/var/mongo-$name/data.mv"
echo "bench servers: nats $BENCH_NATS_URL, mongo $BENCH_MONGO_URL ($BENCH_DB_PIDS)" >&2

node_modules/.bin/tsx bench/soak.bench.ts "$@"
