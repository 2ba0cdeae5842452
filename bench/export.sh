#!/usr/bin/env bash
# Export benchmark: sets up what is missing, starts a MongoDB-wire server on
# loopback (as bench/web.sh does), runs bench/export.bench.ts against it (the
# api, tasks and users services run in the benchmark's own process) and stops
# the server. Options pass through: --subtasks N (2500), --rounds N (3).
# BENCH_INFRA_NAME (default export) names the server's state folder under var/.
set -euo pipefail
. "$(dirname "$0")/servers.sh" export

node_modules/.bin/tsx bench/export.bench.ts "$@"
