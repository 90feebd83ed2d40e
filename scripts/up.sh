#!/bin/sh
# One command from a fresh clone to a running Airlock (issue 19, item 1):
#
#   sh scripts/up.sh [serve options: --port N, --data-dir DIR, --vault keychain|file]
#
# Runs scripts/setup.sh (Node 22, npm ci, build — each only when needed), then `airlock serve`.
# stdout gets exactly one line, serve's ready JSON line; everything else goes to stderr.
# Without an OS keychain (no Secret Service on a session D-Bus: servers, containers, CI) serve
# keeps secrets in the encrypted file vault in the data directory and says so; its key is
# AIRLOCK_VAULT_PASSPHRASE if set, else an owner-only key file created on first use.
# AIRLOCK_PORT sets --port when no --port is given (0 = any free port).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
NODE_BIN=$(sh "$ROOT/scripts/setup.sh" --print-node-bin)
PATH="$NODE_BIN:$PATH"
export PATH

case " $* " in
*" --port "* | *" --port="*) ;;
*) [ -n "${AIRLOCK_PORT:-}" ] && set -- --port "$AIRLOCK_PORT" "$@" ;;
esac

# No guess here about the keychain: serve says which vault it uses, once (issue 29, item 9).
printf 'up: starting Airlock; open the "controlUrl" of the line below in your browser.\n' >&2
printf 'up: it runs in this terminal until Ctrl+C stops it (README "Install and start": in the background).\n' >&2
# With the Node flags bin/node-flags.js names for this Node (issue 34: AsyncLocalStorage without
# promise hooks on Node 22); unquoted on purpose: none, or one word per flag.
FLAGS=$(node "$ROOT/bin/node-flags.js")
# shellcheck disable=SC2086
exec node $FLAGS "$ROOT/bin/airlock.js" serve "$@"
