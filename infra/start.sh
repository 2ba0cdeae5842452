#!/usr/bin/env bash
# `npm start`: sets up what is missing, starts the local MongoDB-wire server
# unless MONGO_URL is given (or reuses the one another `npm start` of this
# checkout runs), and runs the service (embedded default unless TRANSPORTER is
# set) on HOST:PORT. Arguments go to bin/serve.ts (e.g. --demo).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# First of all, so a second start touches nothing of the instance that holds
# the port. The defaults are services/shared/config.ts's; PORT=0 picks a free port.
port="${PORT:-3000}"
host="${HOST:-127.0.0.1}"
if [ "$port" != 0 ] && (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; then
  echo "start: port $port on $host is taken (another npm start?); it is left running." >&2
  echo "To run another instance beside it, pick another port: PORT=$((port + 1)) npm start" >&2
  exit 1
fi
bash infra/setup.sh
# The dashboard served at / (web/); `npm run build` rebuilds it.
[ -f var/web/index.html ] || node_modules/.bin/vite build --config web/vite.config.ts --logLevel warn
if [ -z "${MONGO_URL:-}" ]; then
  # shellcheck source=infra/local-mongo.sh
  . infra/local-mongo.sh
  use_local_mongo
fi
# No exec: a trap set above stops the database after the service exits.
node_modules/.bin/tsx bin/serve.ts "$@"
