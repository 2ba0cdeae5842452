#!/usr/bin/env bash
# Starts or stops the local MongoDB-wire server on loopback and a free port.
#   infra/mongo.sh start NAME   prints the mongodb:// URL
#   infra/mongo.sh stop NAME
# Which server: MONGO_URL if set; else mongod if on PATH; else FerretDB v1
# (infra/ferretdb) on a private PostgreSQL cluster. FerretDB's SQLite backend
# filters every query in Go after reading the whole collection, its PostgreSQL
# backend pushes equality filters down: about 10x faster on our queries (see
# README, "Local MongoDB-wire server"). FERRETDB_BACKEND=sqlite selects SQLite.
# State and data live in var/mongo-NAME, never in the user's home.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
action="${1:?start|stop}"
name="${2:-local}"
dir="$root/var/mongo-$name"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

# PostgreSQL refuses to run as root; as root it runs as the postgres user, whose
# data folder must be reachable: the project's var/ if it can, else a private
# temporary folder (e.g. a clone below /root, which postgres cannot enter).
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

pg_dir() {
  if [ "$(id -u)" -ne 0 ] || runuser -u postgres -- test -x "$dir" 2>/dev/null; then
    echo "$dir/pg"
  else
    cat "$dir/pg-location" 2>/dev/null || { mktemp -d /tmp/monitor-pg-XXXXXX | tee "$dir/pg-location"; }
  fi
}

start_postgres() {
  local bin data port
  bin="$(pg_bin)"
  [ -n "$bin" ] || { echo "mongo.sh: PostgreSQL is not installed (run infra/setup.sh)" >&2; exit 1; }
  data="$(pg_dir)"
  mkdir -p "$data"
  [ "$(id -u)" -ne 0 ] || chown postgres "$data"
  if [ ! -f "$data/db/PG_VERSION" ]; then
    as_pg "$bin/initdb" -D "$data/db" -A trust -U postgres --no-sync >"$dir/pg-init.log" 2>&1
  fi
  port="$(free_port)"
  # The data of tests is thrown away, so durability settings favour speed there.
  local durability="-c synchronous_commit=off"
  [ "$name" != "test" ] && [ "$name" != "bench" ] || durability="$durability -c fsync=off -c full_page_writes=off"
  as_pg "$bin/pg_ctl" -D "$data/db" -w -t 60 -l "$data/log" \
    -o "-p $port -k $data -c listen_addresses=127.0.0.1 $durability" start >/dev/null
  echo "$data" >"$dir/pg-data"
  as_pg "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -qAt -c "SELECT 1 FROM pg_database WHERE datname='ferretdb'" |
    grep -q 1 || as_pg "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres ferretdb
  echo "postgres://postgres@127.0.0.1:$port/ferretdb"
}

case "$action" in
start)
  if [ -n "${MONGO_URL:-}" ]; then echo "$MONGO_URL"; exit 0; fi
  mkdir -p "$dir"
  rm -f "$dir/port"
  if command -v mongod >/dev/null 2>&1; then
    mkdir -p "$dir/data"
    free_port >"$dir/port"
    mongod --bind_ip 127.0.0.1 --port "$(cat "$dir/port")" --dbpath "$dir/data" --quiet >"$dir/log" 2>&1 &
  elif [ "${FERRETDB_BACKEND:-postgresql}" = "sqlite" ]; then
    "$root/var/bin/ferretdb-local" -dir "$dir/sqlite" -port-file "$dir/port" >"$dir/log" 2>&1 &
  else
    pg_url="$(start_postgres)"
    "$root/var/bin/ferretdb-local" -postgresql-url "$pg_url" -port-file "$dir/port" >"$dir/log" 2>&1 &
  fi
  echo $! >"$dir/pid"
  for _ in $(seq 1 300); do
    if [ -s "$dir/port" ] && port_open "$(cat "$dir/port")"; then
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
  if [ -f "$dir/pg-data" ]; then
    as_pg "$(pg_bin)/pg_ctl" -D "$(cat "$dir/pg-data")/db" -m fast -w stop >/dev/null 2>&1 || true
    rm -f "$dir/pg-data"
  fi
  ;;
*) echo "usage: $0 start|stop [NAME]" >&2; exit 2 ;;
esac
