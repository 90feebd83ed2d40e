#!/bin/sh
# Gets a fresh machine ready to run Airlock (issue 19, item 1), idempotently:
#   1. Node >= 22.12: the one in PATH if new enough, else Node 22 from the npm registry (the
#      `node` package) under $AIRLOCK_NODE_PREFIX (default ~/.cache/airlock-node22, as .ci/run);
#      with no npm at all, the distribution's nodejs+npm first (root or sudo).
#   2. npm >= 11.19: the one in PATH if new enough, else npm 11 from the registry under the same
#      prefix. package.json's allowScripts (npm >= 11.16) keeps better-sqlite3's implicit
#      `node-gyp rebuild` from running, so its prebuilt binary is used; older npm (Debian's 9,
#      Node 22's own 10) runs it, and it fails without node headers from nodejs.org, python3,
#      make and a C++ compiler.
#   3. npm ci, when node_modules is missing or older than package-lock.json.
#   4. npm run build, when dist/ is missing or older than a source file.
#   5. an `airlock` launcher pinned to that Node, with the flags bin/node-flags.js names for it, in
#      $AIRLOCK_NODE_PREFIX/bin (no `npm link`: with Node under a prefix, npm's global bin dir is
#      not in PATH).
# AIRLOCK_SETUP_NO_INSTALL=1 makes steps 1-4 fail instead of installing or building (tests use it:
# they must not change node_modules or dist/ under other tests' feet).
# POSIX sh (dash). Everything it says goes to stderr; with --print-node-bin, stdout gets only
# the directory of the Node it chose (scripts/up.sh uses that).
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
NODE_PREFIX=${AIRLOCK_NODE_PREFIX:-$HOME/.cache/airlock-node22}
PRINT_NODE_BIN=0
[ "${1:-}" = "--print-node-bin" ] && PRINT_NODE_BIN=1

say() { printf 'setup: %s\n' "$*" >&2; }

# Runs "$@" and, while it runs, says "still <what> (N s)" every AIRLOCK_SETUP_TICK seconds
# (default 20): npm ci and the build are quiet for a minute or two (issue 29, item 9). The ticker's
# stdout is /dev/null, so `$(sh setup.sh --print-node-bin)` never waits for it.
with_progress() {
  what=$1
  shift
  "$@" &
  job=$!
  started=$(date +%s)
  (
    nap=''
    trap '[ -n "$nap" ] && kill "$nap" 2>/dev/null; exit 0' TERM
    while :; do
      sleep "${AIRLOCK_SETUP_TICK:-20}" &
      nap=$!
      wait "$nap"
      kill -0 "$job" 2>/dev/null || exit 0
      say "still $what ($(($(date +%s) - started)) s)"
    done
  ) >/dev/null &
  ticker=$!
  status=0
  wait "$job" || status=$?
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
  return "$status"
}
die() {
  printf 'setup: %s\n' "$*" >&2
  exit 1
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "need root (or sudo) for: $*"
  fi
}

# Prints "ok" if the given node is >= 22.12.
node_ok() {
  "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.stdout.write(a>22||(a===22&&b>=12)?"ok":"old")' 2>/dev/null || true
}

find_node() {
  if command -v node >/dev/null 2>&1 && [ "$(node_ok "$(command -v node)")" = ok ]; then
    dirname "$(command -v node)"
    return 0
  fi
  if [ -x "$NODE_PREFIX/node_modules/.bin/node" ] && [ "$(node_ok "$NODE_PREFIX/node_modules/.bin/node")" = ok ]; then
    echo "$NODE_PREFIX/node_modules/.bin"
    return 0
  fi
  return 1
}

# The prefix's package.json allows the `node` package's install script (npm >= 12 blocks it).
allow_node_script() {
  pj="$NODE_PREFIX/package.json"
  if [ ! -f "$pj" ]; then
    printf '{"private":true,"allowScripts":{"node":true}}\n' >"$pj"
  elif ! grep -q '"allowScripts"' "$pj"; then
    sed '1s/^{/{"allowScripts":{"node":true},/' "$pj" >"$pj.tmp" && mv "$pj.tmp" "$pj"
  fi
}

install_node() {
  if ! command -v npm >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || die "no npm to fetch Node 22 with; install Node 22 (or any npm) first"
    say "no npm: installing the distribution's nodejs and npm with apt-get (a few minutes)"
    # Only to fetch Node 22 with. dpkg's progress (hundreds of lines) is dropped; errors still show.
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      nodejs npm >/dev/null
  fi
  say "installing Node 22 from the npm registry under $NODE_PREFIX"
  mkdir -p "$NODE_PREFIX"
  # The `node` package's install script fetches the matching node-<os>-<arch> binary package.
  # npm 12 runs only the install scripts it is told to allow, and the `node` package's script is
  # what fetches the Node binary: allow it in the prefix's own package.json (older npm ignore it).
  allow_node_script
  npm install --prefix "$NODE_PREFIX" --loglevel=error --no-fund --no-audit node@22 >&2
}

NODE_BIN=$(find_node) || {
  [ -z "${AIRLOCK_SETUP_NO_INSTALL:-}" ] || die "no Node >= 22.12 in PATH or $NODE_PREFIX, and AIRLOCK_SETUP_NO_INSTALL is set"
  install_node
  NODE_BIN=$(find_node) || die "Node 22 was installed but does not run ($NODE_PREFIX/node_modules/.bin/node)"
}
PATH="$NODE_BIN:$PATH"
export PATH
say "node $(node -v) ($NODE_BIN/node)"

# Prints "ok" if the given npm is >= 11.19 (see step 2 above).
npm_ok() {
  "$1" -v 2>/dev/null | awk -F. '{ print ($1 > 11 || ($1 == 11 && $2 >= 19)) ? "ok" : "old" }'
}
PREFIX_NPM="$NODE_PREFIX/node_modules/.bin/npm"
# Sets NPM to an npm >= 11.19, fetching npm 11 under the prefix if need be. Only npm ci needs it:
# with dependencies already in place, an older npm (or none newer, offline) is no obstacle.
pick_npm() {
  if command -v npm >/dev/null 2>&1 && [ "$(npm_ok npm)" = ok ]; then
    NPM=npm
  elif [ -x "$PREFIX_NPM" ] && [ "$(npm_ok "$PREFIX_NPM")" = ok ]; then
    NPM=$PREFIX_NPM
  else
    command -v npm >/dev/null 2>&1 || die "no npm to fetch npm 11 with; install npm (any version) first"
    say "npm $(npm -v) does not honour package.json's allowScripts: installing npm 11 under $NODE_PREFIX"
    npm install --prefix "$NODE_PREFIX" --loglevel=error --no-fund --no-audit npm@11 >&2
    [ "$(npm_ok "$PREFIX_NPM")" = ok ] || die "npm 11 was installed but does not run ($PREFIX_NPM)"
    NPM=$PREFIX_NPM
  fi
  say "npm $("$NPM" -v)"
}

cd "$ROOT"
# Headless machines need neither Electron's binary nor Playwright's browsers to run Airlock.
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  ELECTRON_SKIP_BINARY_DOWNLOAD=${ELECTRON_SKIP_BINARY_DOWNLOAD:-1}
  export ELECTRON_SKIP_BINARY_DOWNLOAD
fi
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=${PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD:-1}
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD

# Content, not mtimes (a checkout touches files): npm ls fails on anything missing or invalid.
if [ -d node_modules ] && npm ls --depth=0 --silent >/dev/null 2>&1; then
  say "dependencies up to date"
elif [ -n "${AIRLOCK_SETUP_NO_INSTALL:-}" ]; then
  die "dependencies need npm ci, and AIRLOCK_SETUP_NO_INSTALL is set"
else
  pick_npm
  say "installing dependencies (npm ci; about 2 minutes the first time, quiet until done)"
  with_progress "installing dependencies" "$NPM" ci --loglevel=error --no-fund --no-audit >&2
fi

# npm run build:main rewrites every output, the CLI bundle last (scripts/build-cli.mjs, what
# bin/airlock.js runs), so dist/main/bundle/cli.js older than no source file = built.
if [ -f dist/main/bundle/cli.js ] && [ -f dist/renderer/index.html ] &&
  [ -z "$(find main common preload renderer package.json scripts/build-cli.mjs -newer dist/main/bundle/cli.js -type f 2>/dev/null | head -n 1)" ]; then
  say "build up to date"
elif [ -n "${AIRLOCK_SETUP_NO_INSTALL:-}" ]; then
  die "dist/ is missing or older than the sources: run npm run build (AIRLOCK_SETUP_NO_INSTALL is set)"
else
  say "building (npm run build; about 1 minute)"
  with_progress "building" npm run build --silent >&2
fi

# `airlock` anywhere, pinned to this Node.
mkdir -p "$NODE_PREFIX/bin"
LAUNCHER="$NODE_PREFIX/bin/airlock"
# With the Node flags bin/node-flags.js names for that Node, baked in now rather than asked at each
# run: asking would cost every `airlock` command a second Node start (issue 34, cold start).
# Rewritten by each run of this script, like the path. They hold for that Node version only: a
# Node upgraded in place at the same path (brew, apt) may reject them — Node 24 has no
# --experimental-async-context-frame, "bad option" — so the launcher compares `node --version`
# (answered before V8 starts: about 5 ms, not a Node start) and runs without them on another.
FLAGS=$("$NODE_BIN/node" "$ROOT/bin/node-flags.js")
if [ -n "$FLAGS" ]; then
  printf '#!/bin/sh\nif [ "$("%s/node" --version 2>/dev/null)" = "%s" ]; then\n  exec "%s/node" %s "%s/bin/airlock.js" "$@"\nfi\nexec "%s/node" "%s/bin/airlock.js" "$@"\n' \
    "$NODE_BIN" "$("$NODE_BIN/node" --version)" "$NODE_BIN" "$FLAGS" "$ROOT" "$NODE_BIN" "$ROOT" >"$LAUNCHER.tmp"
else
  printf '#!/bin/sh\nexec "%s/node" "%s/bin/airlock.js" "$@"\n' "$NODE_BIN" "$ROOT" >"$LAUNCHER.tmp"
fi
chmod 755 "$LAUNCHER.tmp"
mv "$LAUNCHER.tmp" "$LAUNCHER"

# With npm 11 fetched under the prefix, its .bin goes on the PATH too, so a later npm ci by hand
# uses it (README: "npm ci && npm start").
EXTRA=""
[ "${NPM:-}" = "$PREFIX_NPM" ] && [ "$NODE_BIN" != "$NODE_PREFIX/node_modules/.bin" ] && EXTRA="$NODE_PREFIX/node_modules/.bin:"
say "ready. To use the airlock command in this shell (add it to ~/.profile to keep it):"
say "  export PATH=\"$NODE_PREFIX/bin:$NODE_BIN:$EXTRA\$PATH\""
[ "$PRINT_NODE_BIN" -eq 1 ] && printf '%s\n' "$NODE_BIN"
exit 0
