#!/usr/bin/env bash
# `npm run admin -- …`: the operator CLI against MONGO_URL, or against the local
# MongoDB-wire server that `npm start` runs (started here if it is not running).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [ -z "${MONGO_URL:-}" ]; then
  bash infra/setup.sh
  # shellcheck source=infra/local-mongo.sh
  . infra/local-mongo.sh
  use_local_mongo
fi
# AIMON_BUILD: a build's output folder (the test suite's var/build), run compiled, as bin/aimon.js does.
if [ -n "${AIMON_BUILD:-}" ]; then
  exec node "$AIMON_BUILD/bin/admin.js" "$@"
fi
exec node_modules/.bin/tsx bin/admin.ts "$@"
