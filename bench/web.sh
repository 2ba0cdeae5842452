#!/usr/bin/env bash
# Web benchmark: sets up what is missing, starts a NATS server and a
# MongoDB-wire server on loopback (as bench/pipeline.sh does), runs
# bench/web.bench.ts against them (it starts the cluster's nodes as child
# processes and the site replica in its own process) and stops both servers.
# Options pass through: --platform deepseek|doubao|kimi|yuanbao, --subtasks N,
# --accounts N, --frame-latency MS, --memory-base K, --memory-extra M
# (see bench/web/options.ts and docs/benchmarks.md). BENCH_INFRA_NAME (default
# web) names the servers' state folders under var/.
set -euo pipefail
. "$(dirname "$0")/servers.sh" web nats

node_modules/.bin/tsx bench/web.bench.ts "$@"
