#!/usr/bin/env bash
# Installs everything the project needs on a fresh Debian machine, idempotently:
# system packages (NATS server, Chromium, fonts, a JDK and Maven), npm packages,
# and the local MongoDB-wire server (mongo-java-server, from Maven Central).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mkdir -p var

need_apt=()
command -v nats-server >/dev/null 2>&1 || need_apt+=(nats-server)
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
python3 -c 'import ensurepip' >/dev/null 2>&1 || need_apt+=(python3-venv)
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
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing ${need_apt[*]} (apt)" >&2
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

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
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "setup: installing npm packages" >&2
  npm ci --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi

# Kubernetes JSON schemas (bundled per version) for the deployment files test.
if [ ! -x var/kube-validate/bin/kubernetes-validate ]; then
  echo "setup: installing kubernetes-validate" >&2
  python3 -m venv var/kube-validate
  var/kube-validate/bin/pip install -q kubernetes-validate==1.37.0
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
