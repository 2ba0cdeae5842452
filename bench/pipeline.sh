#!/usr/bin/env bash
# Pipeline benchmark: sets up what is missing, starts a NATS server and a
# MongoDB-wire server on loopback (as infra/test.sh does), runs
# bench/pipeline.bench.ts against them (it starts the cluster's nodes as child
# processes) and stops both servers. Knobs: BENCH_SUBTASKS, BENCH_LATENCY_MS,
# BENCH_NODES, BENCH_CAPACITY, BENCH_PREFETCH, BENCH_WARMUP, BENCH_SUBMITTERS,
# BENCH_WEB_SUBTASKS, BENCH_WEB_CAPACITY, BENCH_SAMPLE_MS, BENCH_POLL_MS,
# BENCH_STREAM_WRITES, BENCH_TRACE=1, BENCH_SKIP_WEB=1 (see
# bench/pipeline/options.ts and docs/benchmarks.md); BENCH_INFRA_NAME (default pipeline) names
# the servers' state folders under var/ (its own, so that bench/run.sh or the
# test suite running at the same time cannot stop this run's servers).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash infra/setup.sh

name="${BENCH_INFRA_NAME:-pipeline}"
trap 'bash infra/nats.sh stop "$name" || true; bash infra/mongo.sh stop "$name" || true' EXIT
BENCH_NATS_URL="$(bash infra/nats.sh start "$name")"
BENCH_MONGO_URL="$(bash infra/mongo.sh start "$name")"
export BENCH_NATS_URL BENCH_MONGO_URL

# The database's processes, so the bench can report their CPU too.
pids=""
[ -s "var/mongo-$name/pid" ] && pids="mongo-server:$(cat "var/mongo-$name/pid")"
pids="$pids nats:$(cat "var/nats-$name/pid" 2>/dev/null || true)"
export BENCH_DB_PIDS="$pids"
echo "bench servers: nats $BENCH_NATS_URL, mongo $BENCH_MONGO_URL ($BENCH_DB_PIDS)" >&2

node_modules/.bin/tsx bench/pipeline.bench.ts "$@"
