#!/usr/bin/env bash
# Starts or stops the local MongoDB-wire server on loopback and a free port.
#   infra/mongo.sh start NAME   prints the mongodb:// URL
#   infra/mongo.sh stop NAME
# Which server: MONGO_URL if set; else mongod if on PATH; else mongo-java-server
# (infra/mongo-java, H2 backend) with its data file in var/mongo-NAME. See the
# README, "Local MongoDB-wire server", for why not FerretDB.
# MONGO_JFR=FILE (mongo-java-server only) records a JDK Flight Recording of the
# server's first 120 s into FILE; read it with `jfr print --events jdk.ExecutionSample FILE`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
action="${1:?start|stop}"
name="${2:-local}"
dir="$root/var/mongo-$name"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

case "$action" in
start)
  if [ -n "${MONGO_URL:-}" ]; then echo "$MONGO_URL"; exit 0; fi
  # Already running under this name (its data file is locked): reuse it.
  if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null && [ -s "$dir/port" ] && port_open "$(cat "$dir/port")"; then
    echo "mongodb://127.0.0.1:$(cat "$dir/port")/"
    exit 0
  fi
  mkdir -p "$dir"
  rm -f "$dir/port"
  if command -v mongod >/dev/null 2>&1; then
    mkdir -p "$dir/data"
    free_port >"$dir/port"
    mongod --bind_ip 127.0.0.1 --port "$(cat "$dir/port")" --dbpath "$dir/data" --quiet >"$dir/log" 2>&1 &
  else
    profile=()
    if [ -n "${MONGO_JFR:-}" ]; then profile=("-XX:StartFlightRecording=duration=120s,settings=profile,filename=$MONGO_JFR"); fi
    java "${profile[@]}" -Xss512k -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$root/var/mongo-java/classes:$root/var/mongo-java/lib/*" LocalMongo \
      --file "$dir/data.mv" --port-file "$dir/port" >"$dir/log" 2>&1 &
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
    pid="$(cat "$dir/pid")"
    kill "$pid" 2>/dev/null || true
    # Wait for the store to be flushed and closed.
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$dir/pid"
  fi
  ;;
*) echo "usage: $0 start|stop [NAME]" >&2; exit 2 ;;
esac
