#!/usr/bin/env bash
# Starts, restarts or stops the local MongoDB-wire server on loopback.
#   infra/mongo.sh start NAME     on a free port; prints the mongodb:// URL
#   infra/mongo.sh restart NAME   stops it cleanly and starts it again on the SAME port with the
#                                 SAME data, as after a crash or an upgrade; prints the URL
#   infra/mongo.sh stop NAME
# Which server: MONGO_URL if set; else mongod if on PATH; else mongo-java-server
# (infra/mongo-java, H2 backend) with its data file in var/mongo-NAME. See the
# docs/operations.md, "Local MongoDB-wire server", for why not FerretDB. mongo-java-server
# writes its file store about once a second, so a restart stops it with SIGTERM
# (which flushes it): killed with -9 it would lose the last writes.
# MONGO_JFR=FILE (mongo-java-server only) records a JDK Flight Recording of the
# server's first 120 s into FILE; read it with `jfr print --events jdk.ExecutionSample FILE`.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
action="${1:?start|restart|stop}"
name="${2:-local}"
# shellcheck source=infra/pidfile.sh
. "$root/infra/pidfile.sh"
dir="$root/var/mongo-$name"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

stop_server() { stop_pidfile "$dir"; }

# Launches the server on port $1 (0: a free one) and prints its URL once it listens.
launch() {
  mkdir -p "$dir"
  rm -f "$dir/port"
  if command -v mongod >/dev/null 2>&1; then
    mkdir -p "$dir/data"
    if [ "$1" = 0 ]; then free_port >"$dir/port"; else echo "$1" >"$dir/port"; fi
    mongod --bind_ip 127.0.0.1 --port "$(cat "$dir/port")" --dbpath "$dir/data" --quiet >>"$dir/log" 2>&1 &
  else
    profile=()
    if [ -n "${MONGO_JFR:-}" ]; then profile=("-XX:StartFlightRecording=duration=120s,settings=profile,filename=$MONGO_JFR"); fi
    java "${profile[@]}" -Xss512k -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp "$root/var/mongo-java/classes:$root/var/mongo-java/lib/*" LocalMongo \
      --file "$dir/data.mv" --port "$1" --port-file "$dir/port" >>"$dir/log" 2>&1 &
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
}

case "$action" in
start)
  if [ -n "${MONGO_URL:-}" ]; then echo "$MONGO_URL"; exit 0; fi
  # Already running under this name (its data file is locked): reuse it.
  if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null && [ -s "$dir/port" ] && port_open "$(cat "$dir/port")"; then
    echo "mongodb://127.0.0.1:$(cat "$dir/port")/"
    exit 0
  fi
  launch 0
  ;;
restart)
  if [ -n "${MONGO_URL:-}" ]; then echo "mongo.sh: MONGO_URL is set; restart that server yourself" >&2; exit 1; fi
  [ -s "$dir/port" ] || { echo "mongo.sh: no server named $name was started" >&2; exit 1; }
  port="$(cat "$dir/port")"
  stop_server
  launch "$port"
  ;;
stop) stop_server ;;
*) echo "usage: $0 start|restart|stop [NAME]" >&2; exit 2 ;;
esac
