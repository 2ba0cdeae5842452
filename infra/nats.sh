#!/usr/bin/env bash
# Starts or stops a NATS server on loopback and a free port.
#   infra/nats.sh start NAME   prints the nats:// URL
#   infra/nats.sh stop NAME
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
action="${1:?start|stop}"
name="${2:-local}"
dir="$root/var/nats-$name"

case "$action" in
start)
  # Already running under this name: reuse it.
  if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then
    ports="$dir/nats-server_$(cat "$dir/pid").ports"
    if [ -s "$ports" ]; then
      python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nats"][0])' "$ports"
      exit 0
    fi
  fi
  rm -rf "$dir" && mkdir -p "$dir"
  nats-server -a 127.0.0.1 -p -1 -m -1 -js -sd "$dir/js" --ports_file_dir "$dir" >"$dir/log" 2>&1 &
  pid=$!
  echo "$pid" >"$dir/pid"
  for _ in $(seq 1 100); do
    ports="$dir/nats-server_$pid.ports"
    if [ -s "$ports" ]; then
      python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nats"][0])' "$ports"
      exit 0
    fi
    kill -0 "$pid" 2>/dev/null || { cat "$dir/log" >&2; exit 1; }
    sleep 0.1
  done
  echo "nats.sh: server did not start; see $dir/log" >&2
  exit 1
  ;;
stop)
  [ -f "$dir/pid" ] && kill "$(cat "$dir/pid")" 2>/dev/null || true
  rm -f "$dir/pid"
  ;;
*) echo "usage: $0 start|stop [NAME]" >&2; exit 2 ;;
esac
