#!/bin/sh
# One entry point for both roles: `bot` (default) or `worker`.
set -e
case "${1:-bot}" in
  bot) exec node dist/src/main.js ;;
  worker) exec node dist/src/worker.js ;;
  *) exec "$@" ;;
esac
