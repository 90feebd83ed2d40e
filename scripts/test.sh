#!/usr/bin/env bash
# The one test command (`npm test`): build, lint, typecheck, unit + security specs, e2e.
# Unit and e2e run inside scripts/with-keyring.sh so the vault is tested against a real,
# unlocked Secret Service (gnome-keyring) on Linux.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ -t 1 ]]; then BOLD=$'\033[1m' RESET=$'\033[0m'; else BOLD='' RESET=''; fi
section() {
  printf '\n%s==== %s ====%s\n' "$BOLD" "$*" "$RESET"
}

node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if ((node_major < 22)); then
  echo "test.sh: Node >= 22 is required, found $(node -v 2>/dev/null || echo 'no node') at $(command -v node || echo '?')." >&2
  echo "test.sh: put Node 22 first in PATH (e.g. export PATH=/opt/node22/node_modules/.bin:\$PATH)." >&2
  exit 1
fi

section "node $(node -v), npm $(npm -v)"

section "build"
npm run build

section "lint"
npm run lint

section "format"
npm run format:check

section "typecheck"
npm run typecheck

section "unit + security specs (vitest)"
bash scripts/with-keyring.sh npx vitest run

section "e2e (playwright)"
bash scripts/with-keyring.sh npx playwright test

section "all checks passed"
