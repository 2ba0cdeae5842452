#!/usr/bin/env bash
# `npm test`: the whole check, as CI runs it. Sets up what is missing, starts a
# NATS server and a MongoDB-wire server on loopback, then runs typecheck, lint,
# build, format check and the tap suite against them, and stops the servers.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash infra/setup-test.sh

cleanup() {
  bash infra/mongo.sh stop test || true
  bash infra/nats.sh stop test || true
}
trap cleanup EXIT
TEST_MONGO_URL="$(bash infra/mongo.sh start test)"
TEST_NATS_URL="$(bash infra/nats.sh start test)"
export TEST_MONGO_URL TEST_NATS_URL
# The tests' browsers (and the crawler nodes they start) run on Chromium's headless shell: the
# suite is CPU-bound, and the full browser cost three times the CPU on a web test file
# (docs/testing.md). The tests of the production browser itself (its identity, flags, egress)
# launch /usr/bin/chromium by name.
if command -v chromium-headless-shell >/dev/null 2>&1; then
  CHROMIUM_PATH="$(command -v chromium-headless-shell)"
  export CHROMIUM_PATH
fi
echo "test servers: mongo $TEST_MONGO_URL, nats $TEST_NATS_URL" >&2

# The typecheck of everything, emitting it too: the tests run compiled (no TypeScript loader in
# each test process; source maps point failures at the .ts lines) and so do the child processes
# they start. Emptied first, so that a removed test leaves no compiled copy behind to run.
compile() {
  rm -rf var/build
  local began
  began="$(date +%s)"
  node_modules/.bin/tsc -p tsconfig.json --noEmit false --sourceMap --outDir var/build
  # Stamped with its start, as infra/build.ts stamps its own: the benchmarks find it current.
  touch -d "@$began" var/build/.built
}
# The dashboard's typecheck and its build.
web_build() {
  node_modules/.bin/tsc --noEmit -p web
  node_modules/.bin/vite build --config web/vite.config.ts --logLevel warn
}
lint() { node_modules/.bin/eslint .; }
format_check() { node_modules/.bin/prettier --check . >/dev/null; }
# tsc, eslint and prettier each use one core: CI's two run two steps at once.
# Each step's output follows its name once both ended; a failed one ends the run.
two_at_once() {
  local first_log second_log first=0 second=0
  first_log="$(mktemp)"
  second_log="$(mktemp)"
  "$1" >"$first_log" 2>&1 &
  local first_pid=$!
  "$2" >"$second_log" 2>&1 &
  wait "$!" || second=$?
  wait "$first_pid" || first=$?
  echo "== $1" >&2
  cat "$first_log" >&2
  echo "== $2" >&2
  cat "$second_log" >&2
  rm -f "$first_log" "$second_log"
  [ "$first" -eq 0 ] && [ "$second" -eq 0 ]
}
two_at_once compile web_build
two_at_once lint format_check
echo "== tests" >&2
# A failure deep in the long output is easy to miss (CI shows only its tail):
# on failure, repeat each failing assertion and its diagnostics at the very
# end. Coverage is off (docs/testing.md); `npm test -- --no-disable-coverage`
# collects it and prints its table before the failures. Every run ends with the
# slowest files, where the suite's time goes (a timed-out file among them).
mkdir -p var
# tap builds its Test class with the configured plugins (package.json: tsx instead of its
# TypeScript plugin) when it finds them changed, but the run that notices uses the class it
# had already loaded: a fresh install's first run would load both TypeScript hooks.
node_modules/.bin/tap build >/dev/null
# tap's processinfo records every module each test process loads (a message and a source read
# per module) for coverage and `tap --changed`, which this run uses neither of: record none.
# The per-process records (.tap/processinfo, read by slowest-tests.ts) are still written.
export _TAPJS_PROCESSINFO_EXCLUDE_=/./
# The compiled test files, unless the arguments name test files of their own (run from sources).
files=()
if ! printf '%s\n' "$@" | grep -qE '\.test\.(ts|js)$'; then
  mapfile -t files < <(find var/build/test -name '*.test.js' | sort)
fi
status=0
node_modules/.bin/tap "$@" "${files[@]}" 2>&1 | tee var/tap-output.log || status=$?
if [ "$status" -ne 0 ]; then
  echo "== failures (tap exit $status)" >&2
  grep -n -A16 -E '^[[:space:]]*not ok ' var/tap-output.log | head -n 300 >&2 || true
  # A test process that crashed (an error outside any assertion, e.g. while its
  # cluster starts) fails with no failing assertion: show the stack Node printed,
  # which ends with Node's version line.
  grep -n -B24 -E '^Node\.js v[0-9]' var/tap-output.log | head -n 200 >&2 || true
fi
node_modules/.bin/tsx infra/slowest-tests.ts >&2 || true
exit "$status"
