#!/usr/bin/env bash
# Installs what serving needs on a fresh Debian machine, idempotently (`npm start`
# runs it): system packages (NATS server, Chromium, fonts, jq for the README's
# curl lines, a JDK and Maven), npm packages, and the local MongoDB-wire server
# (mongo-java-server, from Maven Central). What only the tests need is in
# infra/setup-test.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=infra/apt.sh
. infra/apt.sh
mkdir -p var

need_apt=()
command -v nats-server >/dev/null 2>&1 || need_apt+=(nats-server)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v jq >/dev/null 2>&1 || need_apt+=(jq)
# CJK and emoji fonts, so screenshots of Chinese answers show text, not boxes.
[ -d /usr/share/fonts/opentype/noto ] || need_apt+=(fonts-noto-cjk)
[ -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || need_apt+=(fonts-noto-color-emoji)
local_mongo=""
[ -n "${MONGO_URL:-}" ] || command -v mongod >/dev/null 2>&1 || local_mongo=1
if [ -n "$local_mongo" ]; then
  command -v javac >/dev/null 2>&1 || need_apt+=(default-jdk-headless)
  command -v mvn >/dev/null 2>&1 || need_apt+=(maven)
fi
sudo_cmd=""
[ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
[ ${#need_apt[@]} -eq 0 ] || apt_install "${need_apt[@]}"

# Chromium's managed policies (Debian's chromium reads them from here): no
# network prediction, whose preconnects to a page's foreign hosts (an https
# iframe) would reach the regional proxy before the crawler's route blocks the
# request; no sign-in, sync, autofill or component traffic either.
policy=/etc/chromium/policies/managed/ai-answer-monitor.json
if ! cmp -s infra/chromium-policy.json "$policy"; then
  echo "setup: installing Chromium policies ($policy)" >&2
  $sudo_cmd mkdir -p "$(dirname "$policy")"
  $sudo_cmd cp infra/chromium-policy.json "$policy"
fi

# npm ci only when the lock file changed since the last install.
# Never through a link: node_modules linked to another checkout's (a git worktree sharing one
# install) is that checkout's to install, and npm ci here would empty it under whatever runs there.
stamp=node_modules/.install-stamp
if [ -L node_modules ]; then
  :
elif [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "setup: installing npm packages" >&2
  npm ci --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi

# The local MongoDB-wire server (mongo-java-server), built once from Maven Central.
if [ -n "$local_mongo" ]; then
  out=var/mongo-java
  if [ ! -f "$out/classes/LocalMongo.class" ] || [ -n "$(find infra/mongo-java -newer "$out/classes/LocalMongo.class" -type f 2>/dev/null)" ]; then
    echo "setup: building the local MongoDB-wire server (Maven)" >&2
    rm -rf "$out" && mkdir -p "$out/classes"
    mvn -q -f infra/mongo-java/pom.xml dependency:copy-dependencies -DoutputDirectory="$root/$out/lib" >&2
    javac -d "$out/classes" -cp "$out/lib/*" infra/mongo-java/src/*.java
  fi
fi
