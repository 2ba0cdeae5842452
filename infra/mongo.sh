#!/usr/bin/env bash
# Starts or stops the local MongoDB-wire server on loopback and a free port.
#   infra/mongo.sh start NAME   prints the mongodb:// URL (MONGO_URL if set, else
#                               mongod if on PATH, else FerretDB v1 on SQLite)
#   infra/mongo.sh stop NAME
# State and data live in var/mongo-NAME, never in the user's home.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
action="${1:?start|stop}"
name="${2:-local}"
dir="$root/var/mongo-$name"

case "$action" in
start)
  if [ -n "${MONGO_URL:-}" ]; then echo "$MONGO_URL"; exit 0; fi
  mkdir -p "$dir/data"
  rm -f "$dir/port"
  if command -v mongod >/dev/null 2>&1; then
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    mongod --bind_ip 127.0.0.1 --port "$port" --dbpath "$dir/data" --quiet >"$dir/log" 2>&1 &
    echo $! >"$dir/pid"
    echo "$port" >"$dir/port"
  else
    "$root/var/bin/ferretdb-local" -dir "$dir/data" -port-file "$dir/port" >"$dir/log" 2>&1 &
    echo $! >"$dir/pid"
  fi
  for _ in $(seq 1 300); do
    if [ -s "$dir/port" ] && (exec 3<>"/dev/tcp/127.0.0.1/$(cat "$dir/port")") 2>/dev/null; then
      echo "mongodb://127.0.0.1:$(cat "$dir/port")/"
      exit 0
    fi
    kill -0 "$(cat "$dir/pid")" 2>/dev/null || { cat "$dir/log" >&2; exit 1; }
    sleep 0.1
  done
  echo "mongo.sh: server did not start; see $dir/log" >&2
  exit 1
  ;;
stop)
  if [ -f "$dir/pid" ]; then
    kill "$(cat "$dir/pid")" 2>/dev/null || true
    rm -f "$dir/pid"
  fi
  ;;
*) echo "usage: $0 start|stop [NAME]" >&2; exit 2 ;;
esac
