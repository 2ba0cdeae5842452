# Shared by `npm start` and `npm run admin` (sourced from the checkout's root):
# points MONGO_URL at the local MongoDB-wire server under var/mongo-local. One
# already running (another `npm start` of this checkout) is reused and left
# running; one started here is stopped when the calling script exits.
use_local_mongo() {
  local port_file=var/mongo-local/port
  if [ -s "$port_file" ] && (exec 3<>"/dev/tcp/127.0.0.1/$(cat "$port_file")") 2>/dev/null; then
    MONGO_URL="mongodb://127.0.0.1:$(cat "$port_file")/"
    echo "local MongoDB-wire server at $MONGO_URL (already running; left running)" >&2
  else
    MONGO_URL="$(bash infra/mongo.sh start local)"
    trap 'bash infra/mongo.sh stop local' EXIT
    echo "local MongoDB-wire server at $MONGO_URL" >&2
  fi
  export MONGO_URL
}
