# Shared by the server scripts: stops the process recorded in "$1/pid" and
# waits up to 10 s for it to exit (so its data is flushed and closed).
stop_pidfile() {
  if [ -f "$1/pid" ]; then
    local pid
    pid="$(cat "$1/pid")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    rm -f "$1/pid"
  fi
}
