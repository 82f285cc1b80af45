#!/usr/bin/env bash
# Prints the folder of a Node 24 `node`, to put first on PATH (`.ci/run` does): the machine's
# own when it is 24 or newer, otherwise the npm registry's `node` package (Node's official
# binaries) installed once into a cache folder outside the repository and reused afterwards.
# npm itself runs on whichever `node` comes first on PATH, so with that folder first, npm ci,
# the linters and the tests all run on Node 24. Only the folder goes to standard output.
#   export PATH="$(bash scripts/node24.sh):$PATH"
set -euo pipefail

want=24
cache_home="${XDG_CACHE_HOME:-${HOME:+$HOME/.cache}}"
cache="${NODE24_CACHE:-${cache_home:-${TMPDIR:-/tmp}}/connect-bot/node$want}"

major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

own="$(command -v node || true)"
if [ -n "$own" ] && [ "$(major "$own")" -ge "$want" ]; then
  dirname "$own"
  exit 0
fi

bin="$cache/node_modules/node/bin"
if [ "$(major "$bin/node")" -ne "$want" ]; then
  echo "node24: $(${own:-false} --version 2>/dev/null || echo 'no node') here; installing node@$want from the npm registry into $cache" >&2
  mkdir -p "$(dirname "$cache")"
  staging="$(mktemp -d "$cache.XXXXXX")"
  # The package's preinstall fetches the platform's binary; allowScripts names it so npm runs
  # it without a warning now and still runs it once npm blocks unreviewed install scripts.
  printf '{ "private": true, "allowScripts": { "node": true } }\n' >"$staging/package.json"
  npm install --prefix "$staging" --no-audit --no-fund --loglevel=error "node@$want" >&2
  [ "$(major "$staging/node_modules/node/bin/node")" -eq "$want" ] || {
    echo "node24: the installed node is not Node $want" >&2
    exit 1
  }
  # Moved in whole, so a run that stops half-way never leaves a half-installed cache; when a
  # run alongside got there first, its copy is kept and this one dropped.
  rm -rf "$cache"
  mv -T "$staging" "$cache" 2>/dev/null || rm -rf "$staging"
fi
[ "$(major "$bin/node")" -eq "$want" ] || {
  echo "node24: no Node $want at $bin" >&2
  exit 1
}
echo "$bin"
