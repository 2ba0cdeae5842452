#!/usr/bin/env bash
# Installs everything the project needs on a fresh Debian machine, idempotently:
# system packages (NATS server, Chromium, PostgreSQL), npm packages, and the
# local MongoDB-wire server (FerretDB v1 embedded in a small Go program).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mkdir -p var/bin

need_apt=()
command -v nats-server >/dev/null 2>&1 || need_apt+=(nats-server)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# PostgreSQL is FerretDB's backend, unless a MongoDB is at hand.
if [ -z "${MONGO_URL:-}" ] && ! command -v mongod >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  need_apt+=(postgresql)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]} (apt)" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# npm ci only when the lock file changed since the last install.
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "setup: installing npm packages" >&2
  npm ci --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi

# MongoDB-wire server: only needed when neither MONGO_URL nor mongod is available.
if [ -z "${MONGO_URL:-}" ] && ! command -v mongod >/dev/null 2>&1; then
  bin=var/bin/ferretdb-local
  if [ ! -x "$bin" ] || [ -n "$(find infra/ferretdb -newer "$bin" -type f 2>/dev/null)" ]; then
    command -v go >/dev/null 2>&1 || { echo "setup: Go is needed to build FerretDB (apt-get install golang)" >&2; exit 1; }
    echo "setup: building FerretDB (first time takes a few minutes)" >&2
    (cd infra/ferretdb && CGO_ENABLED=0 go build -o "$root/$bin" .)
  fi
fi
