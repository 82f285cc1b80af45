#!/usr/bin/env bash
# What `npm test` needs beyond `npm ci`, on a fresh Debian machine: a Redis on 127.0.0.1:6379
# (a throw-away one, nothing kept on disk, when none answers) and Debian's Chromium, which the
# playground's browser tests drive through playwright-core (no browser download). Installs with
# apt-get only what is missing, so it is quick where both are there already. It also says how
# to get Node 24 when the `node` on PATH is older (a script cannot change its caller's PATH).
set -euo pipefail

if [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -lt 24 ]; then
  echo "test-deps: this is Node $(node --version 2>/dev/null || echo '(none)'); the project runs on Node 24:" >&2
  echo "test-deps:   export PATH=\"\$(bash scripts/node24.sh):\$PATH\"   (then npm ci again)" >&2
fi

apt_install() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "test-deps: $* is missing; install it as root: apt-get install -y $*" >&2
    exit 1
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  command -v redis-server >/dev/null 2>&1 || apt_install redis-server
  redis-server --daemonize yes --port 6379 --save "" --appendonly no
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.2; done
fi
# Its own command, so that a Redis that did not come up stops the script here (set -e).
redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null
echo "test-deps: Redis answers on 127.0.0.1:6379"

[ -x /usr/bin/chromium ] || apt_install chromium
echo "test-deps: $(/usr/bin/chromium --version)"
