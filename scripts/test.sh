#!/usr/bin/env bash
# The one test command (`npm test`): build, lint, typecheck, unit + security specs, packaging, e2e.
# Unit and e2e run inside scripts/with-keyring.sh so the vault is tested against a real,
# unlocked Secret Service (gnome-keyring) on Linux.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ -t 1 ]]; then BOLD=$'\033[1m' RESET=$'\033[0m'; else BOLD='' RESET=''; fi
T_START=$SECONDS
STAGE='' STAGE_START=$SECONDS
TIMES=()
# Each stage's time goes on its closing line and into the summary (issue 19, item 6).
end_stage() {
  [[ -n "$STAGE" ]] || return 0
  local took=$((SECONDS - STAGE_START))
  printf '%s---- %s: %ss%s\n' "$BOLD" "$STAGE" "$took" "$RESET"
  TIMES+=("$(printf '%6ss  %s' "$took" "$STAGE")")
  STAGE=''
}
section() {
  end_stage
  printf '\n%s==== %s ====%s\n' "$BOLD" "$*" "$RESET"
  STAGE="$*" STAGE_START=$SECONDS
}
on_exit() {
  local rc=$?
  if ((rc != 0)) && [[ -n "$STAGE" ]]; then
    printf '\n%stest.sh: FAILED in "%s" after %ss (total %ss)%s\n' "$BOLD" "$STAGE" \
      "$((SECONDS - STAGE_START))" "$((SECONDS - T_START))" "$RESET" >&2
    # .ci/run reads this to name the failing stage.
    [[ -n "${AIRLOCK_STAGE_FILE:-}" ]] && printf '%s\n' "npm test: $STAGE" >"$AIRLOCK_STAGE_FILE"
  fi
}
trap on_exit EXIT

node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if ((node_major < 22)); then
  echo "test.sh: Node >= 22 is required, found $(node -v 2>/dev/null || echo 'no node') at $(command -v node || echo '?')." >&2
  echo "test.sh: put Node 22 first in PATH (sh scripts/setup.sh installs it and prints the PATH line)." >&2
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

# electron-builder builds the app for every platform against a stand-in Electron and the test reads
# each package's files (issue 32). Its own stage: about two minutes, and it needs the npm registry.
section "packaging (electron-builder, every platform)"
npx vitest run -c vitest.packaging.config.ts

section "e2e (playwright)"
bash scripts/with-keyring.sh npx playwright test

end_stage
printf '\n%s==== all checks passed in %ss ====%s\n' "$BOLD" "$((SECONDS - T_START))" "$RESET"
printf '%s\n' "${TIMES[@]}"
