#!/usr/bin/env bash
# MCP benchmark: sets up what is missing, starts a MongoDB-wire server on
# loopback, runs bench/mcp.bench.ts against it (the embedded default runs in
# the benchmark's own process) and stops the server. Knobs: BENCH_ROUNDS
# (500 timed pairs per figure), BENCH_SUBTASKS (20 in the read task).
set -euo pipefail
. "$(dirname "$0")/servers.sh" mcp

node_modules/.bin/tsx bench/mcp.bench.ts "$@"
