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
. "$(dirname "$0")/servers.sh" pipeline nats

node_modules/.bin/tsx bench/pipeline.bench.ts "$@"
