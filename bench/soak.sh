#!/usr/bin/env bash
# Soak benchmark: starts a NATS server and a MongoDB-wire server on loopback
# (bench/servers.sh), runs bench/soak.bench.ts against them (it brings var/build
# up to date first: the cluster's nodes run the compiled bin/serve.js) and
# stops both servers. Options pass
# through: --minutes N (fractions allowed), --every S, --api-prompts N,
# --web-prompts N, --latency MS, --failure-rate F, --sample S (see
# bench/soak/options.ts and docs/benchmarks.md). BENCH_INFRA_NAME (default
# soak) names the servers' state folders under var/.
set -euo pipefail
. "$(dirname "$0")/servers.sh" soak nats

node_modules/.bin/tsx bench/soak.bench.ts "$@"
