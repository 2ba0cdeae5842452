#!/usr/bin/env bash
# `npm test`'s setup: what serving needs (infra/setup.sh), then what only the
# tests need: kubernetes-validate, with the Kubernetes JSON schemas bundled per
# version, in a virtualenv for the deployment files test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=infra/apt.sh
. infra/apt.sh
bash infra/setup.sh

# Chromium's headless shell for the suite's browsers (infra/test.sh): the same engine without the
# browser's own UI layer, a third of the full browser's CPU on the web tests (docs/testing.md).
command -v chromium-headless-shell >/dev/null 2>&1 || apt_install chromium-headless-shell ||
  echo "setup: chromium-headless-shell did not install; the tests drive the full Chromium (slower)" >&2

if [ ! -x var/kube-validate/bin/kubernetes-validate ]; then
  python3 -c 'import ensurepip' >/dev/null 2>&1 || apt_install python3-venv
  echo "setup: installing kubernetes-validate" >&2
  python3 -m venv var/kube-validate
  var/kube-validate/bin/pip install -q kubernetes-validate==1.37.0
fi
