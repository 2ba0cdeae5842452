#!/usr/bin/env bash
# `npm start`: sets up what is missing, starts the local MongoDB-wire server
# unless MONGO_URL is given, and runs the service (embedded default unless
# TRANSPORTER is set). Arguments go to bin/serve.ts (e.g. --demo).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash infra/setup.sh
# The dashboard served at / (web/); `npm run build` rebuilds it.
[ -f var/web/index.html ] || node_modules/.bin/vite build --config web/vite.config.ts --logLevel warn
if [ -z "${MONGO_URL:-}" ]; then
  MONGO_URL="$(bash infra/mongo.sh start local)"
  export MONGO_URL
  trap 'bash infra/mongo.sh stop local' EXIT
  echo "local MongoDB-wire server at $MONGO_URL" >&2
fi
# No exec: the trap stops the database after the service exits.
node_modules/.bin/tsx bin/serve.ts "$@"
