#!/usr/bin/env bash
# API benchmark: sets up what is missing, starts a MongoDB-wire server on
# loopback (as infra/test.sh does), runs bench/api.bench.ts against it and
# stops the server. Knobs: see the header of bench/api.bench.ts (BENCH_*).
set -euo pipefail
. "$(dirname "$0")/servers.sh" bench

node_modules/.bin/tsx bench/api.bench.ts "$@"
