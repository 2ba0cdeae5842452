#!/usr/bin/env bash
# `npm run admin -- …`: the operator CLI against MONGO_URL, or against the local
# MongoDB-wire server that `npm start` runs (started here if it is not running).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [ -z "${MONGO_URL:-}" ]; then
  bash infra/setup.sh
  port_file=var/mongo-local/port
  if [ -s "$port_file" ] && (exec 3<>"/dev/tcp/127.0.0.1/$(cat "$port_file")") 2>/dev/null; then
    MONGO_URL="mongodb://127.0.0.1:$(cat "$port_file")/"
  else
    MONGO_URL="$(bash infra/mongo.sh start local)"
    trap 'bash infra/mongo.sh stop local' EXIT
  fi
  export MONGO_URL
fi
node_modules/.bin/tsx bin/admin.ts "$@"
