#!/usr/bin/env bash
# Starts, restarts or stops a NATS server on loopback.
#   infra/nats.sh start NAME     a fresh server on a free port (data wiped); prints the nats:// URL
#   infra/nats.sh restart NAME   stops it and starts it again on the SAME port with the SAME data
#                                (JetStream directory), as after a crash or an upgrade; prints the URL
#   infra/nats.sh stop NAME
# Its files live in var/nats-NAME (pid, port, log, js/).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
action="${1:?start|restart|stop}"
name="${2:-local}"
# shellcheck source=infra/pidfile.sh
. "$root/infra/pidfile.sh"
dir="$root/var/nats-$name"

running() { [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; }
port_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nats"][0].rsplit(":",1)[1])' "$1"; }

stop_server() { stop_pidfile "$dir"; }

# Launches nats-server on port $1 (-1: a free one) and prints its URL once it listens.
launch() {
  nats-server -a 127.0.0.1 -p "$1" -m -1 -js -sd "$dir/js" --ports_file_dir "$dir" >>"$dir/log" 2>&1 &
  pid=$!
  echo "$pid" >"$dir/pid"
  for _ in $(seq 1 100); do
    ports="$dir/nats-server_$pid.ports"
    if [ -s "$ports" ]; then
      port_of "$ports" >"$dir/port"
      echo "nats://127.0.0.1:$(cat "$dir/port")"
      exit 0
    fi
    kill -0 "$pid" 2>/dev/null || { cat "$dir/log" >&2; exit 1; }
    sleep 0.1
  done
  echo "nats.sh: server did not start; see $dir/log" >&2
  exit 1
}

case "$action" in
start)
  # Already running under this name: reuse it.
  if running; then
    ports="$dir/nats-server_$(cat "$dir/pid").ports"
    [ -s "$dir/port" ] || { [ -s "$ports" ] && port_of "$ports" >"$dir/port"; }
    if [ -s "$dir/port" ]; then
      echo "nats://127.0.0.1:$(cat "$dir/port")"
      exit 0
    fi
  fi
  rm -rf "$dir" && mkdir -p "$dir"
  launch -1
  ;;
restart)
  [ -s "$dir/port" ] || { echo "nats.sh: no server named $name was started" >&2; exit 1; }
  port="$(cat "$dir/port")"
  stop_server
  rm -f "$dir"/nats-server_*.ports
  launch "$port"
  ;;
stop) stop_server ;;
*) echo "usage: $0 start|restart|stop [NAME]" >&2; exit 2 ;;
esac
