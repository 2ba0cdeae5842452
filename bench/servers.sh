# Sourced by the bench/*.sh scripts: sets up what is missing, starts the
# servers a benchmark needs on loopback and stops them when the script exits.
#   . bench/servers.sh <default-name> [nats]
# The MongoDB-wire server always; NATS too when `nats` is given. The servers'
# state folders are var/mongo-<name> and var/nats-<name>, where <name> is
# BENCH_INFRA_NAME or the default (each bench its own, so that bench/run.sh or
# the test suite running at the same time cannot stop this run's servers).
# Exports BENCH_MONGO_URL, BENCH_NATS_URL (with nats), and BENCH_DB_PIDS and
# BENCH_DB_FILE: the database's processes and data file, for the benches that
# report their CPU or memory.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash infra/setup.sh

bench_name="${BENCH_INFRA_NAME:-$1}"
bench_nats="${2:-}"
trap 'bash infra/mongo.sh stop "$bench_name" || true; [ -z "$bench_nats" ] || bash infra/nats.sh stop "$bench_name" || true' EXIT
BENCH_MONGO_URL="$(bash infra/mongo.sh start "$bench_name")"
export BENCH_MONGO_URL
BENCH_DB_PIDS=""
[ -s "var/mongo-$bench_name/pid" ] && BENCH_DB_PIDS="mongo-server:$(cat "var/mongo-$bench_name/pid")"
if [ -n "$bench_nats" ]; then
  BENCH_NATS_URL="$(bash infra/nats.sh start "$bench_name")"
  export BENCH_NATS_URL
  BENCH_DB_PIDS="$BENCH_DB_PIDS nats:$(cat "var/nats-$bench_name/pid" 2>/dev/null || true)"
fi
BENCH_DB_FILE="$root/var/mongo-$bench_name/data.mv"
export BENCH_DB_PIDS BENCH_DB_FILE
echo "bench servers: mongo $BENCH_MONGO_URL${BENCH_NATS_URL:+, nats $BENCH_NATS_URL} ($BENCH_DB_PIDS)" >&2
