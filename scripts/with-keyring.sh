#!/usr/bin/env bash
# Run a command with a working, unlocked Secret Service (gnome-keyring) on a session D-Bus.
#
#   scripts/with-keyring.sh <command> [args...]
#
# If the current session already has a Secret Service that accepts a write without
# prompting, the command runs as-is. Otherwise (headless CI, containers, ssh sessions)
# the script re-executes itself under a private `dbus-run-session` whose first service
# file starts `gnome-keyring-daemon --unlock --components=secrets` with a throwaway
# password (again, unlocked, if the daemon dies mid-run), keeping the keyring files in a
# fresh temporary directory (deleted afterwards) so a developer's real login keyring is
# never touched. Exports AIRLOCK_KEYRING_TEST=1 so tests know a real keyring exists.
#
# Needs (Debian): dbus, dbus-x11 (dbus-run-session), gnome-keyring, libsecret-1-0, libsecret-tools.
set -euo pipefail

readonly KEYRING_PW="${AIRLOCK_TEST_KEYRING_PW:-test-keyring-pw}"
readonly SELF="${BASH_SOURCE[0]}"

die() {
  echo "with-keyring: $*" >&2
  exit 127
}

have() { command -v "$1" >/dev/null 2>&1; }

# True if org.freedesktop.secrets currently has an owner on the session bus (no activation).
secret_service_running() {
  [[ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ]] || return 1
  have dbus-send || return 1
  dbus-send --session --print-reply --reply-timeout=2000 --dest=org.freedesktop.DBus \
    /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets \
    2>/dev/null | grep -q 'boolean true'
}

# True if the default collection takes a write/read/delete round trip without a prompt.
secret_service_usable() {
  have secret-tool || return 1
  local attr=(airlock-keyring-probe "$$")
  printf 'probe' | timeout 5 secret-tool store --label='airlock keyring probe' "${attr[@]}" \
    >/dev/null 2>&1 || return 1
  [[ "$(timeout 5 secret-tool lookup "${attr[@]}" 2>/dev/null)" == probe ]] || return 1
  timeout 5 secret-tool clear "${attr[@]}" >/dev/null 2>&1 || true
}

if [[ $# -eq 0 ]]; then
  echo "usage: $0 <command> [args...]" >&2
  exit 2
fi

if [[ "$1" == "--__inside-private-bus" ]]; then
  # ---- second stage: we are inside our own dbus-run-session ----
  shift
  keyring_home="${AIRLOCK_KEYRING_HOME:?}"
  # The first Secret Service call activates the daemon through our own service file
  # (see first stage); wait up to ~5 s for it to take a write.
  for _ in $(seq 1 50); do
    secret_service_usable && break
    sleep 0.1
  done
  if ! secret_service_running || ! secret_service_usable; then
    cat "$keyring_home/daemon.err" >&2 || true
    die "gnome-keyring-daemon started but the Secret Service is not usable"
  fi
  unset AIRLOCK_KEYRING_HOME
  export AIRLOCK_KEYRING_TEST=1
  rc=0
  "$@" || rc=$?
  starts=$(wc -l <"$keyring_home/starts" 2>/dev/null || echo 0)
  if ((starts > 1)); then
    echo "with-keyring: gnome-keyring-daemon stopped during the run and was started again $((starts - 1)) time(s), unlocked; its stderr:" >&2
    tail -n 20 "$keyring_home/daemon.err" >&2 || true
  fi
  exit "$rc"
fi

# ---- first stage ----
if secret_service_running && secret_service_usable; then
  export AIRLOCK_KEYRING_TEST=1
  exec "$@"
fi

missing=()
have dbus-run-session || missing+=("dbus-run-session (apt-get install dbus dbus-x11)")
have gnome-keyring-daemon || missing+=("gnome-keyring-daemon (apt-get install gnome-keyring)")
have dbus-send || missing+=("dbus-send (apt-get install dbus)")
have secret-tool || missing+=("secret-tool (apt-get install libsecret-tools)")
if ((${#missing[@]})); then
  printf 'with-keyring: no usable Secret Service on the session bus, and cannot start one.\n' >&2
  printf 'with-keyring: missing: %s\n' "${missing[@]}" >&2
  exit 127
fi

# Fresh keyring directory per run: no stale state, no clash with a real login keyring.
AIRLOCK_KEYRING_HOME="$(mktemp -d "${TMPDIR:-/tmp}/airlock-keyring.XXXXXX")"
export AIRLOCK_KEYRING_HOME
trap 'rm -rf "$AIRLOCK_KEYRING_HOME"' EXIT

# The daemon is started by D-Bus activation from our own service file, listed ahead of the
# system's. gnome-keyring-daemon can abort on a client that disconnects mid-request
# ("gkd_secret_service_get_pkcs11_session: assertion 'client' failed"); the system's service
# file would then start a fresh daemon that is locked and has no default collection, and
# every later keychain call would wait on a prompt nobody can answer. Ours starts it again
# unlocked, on the same keyring files, so the secrets written before are still there.
# gnome-keyring keeps keyrings in $XDG_DATA_HOME/keyrings; only the daemon sees this
# override, the wrapped command keeps the caller's environment.
mkdir -p "$AIRLOCK_KEYRING_HOME/services" "$AIRLOCK_KEYRING_HOME/data"
launcher="$AIRLOCK_KEYRING_HOME/start-keyring.sh"
cat >"$launcher" <<LAUNCH
#!/bin/sh
echo start >>"$AIRLOCK_KEYRING_HOME/starts"
printf '%s' '$KEYRING_PW' | XDG_DATA_HOME="$AIRLOCK_KEYRING_HOME/data" \
  exec gnome-keyring-daemon --foreground --unlock --components=secrets \
  >/dev/null 2>>"$AIRLOCK_KEYRING_HOME/daemon.err"
LAUNCH
chmod 700 "$launcher"
printf '[D-BUS Service]\nName=org.freedesktop.secrets\nExec=%s\n' "$launcher" \
  >"$AIRLOCK_KEYRING_HOME/services/org.freedesktop.secrets.service"
session_conf=/usr/share/dbus-1/session.conf
[[ -f "$session_conf" ]] || session_conf=/etc/dbus-1/session.conf
[[ -f "$session_conf" ]] || die "no D-Bus session configuration (apt-get install dbus)"
cat >"$AIRLOCK_KEYRING_HOME/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <servicedir>$AIRLOCK_KEYRING_HOME/services</servicedir>
  <include>$session_conf</include>
</busconfig>
CONF

# Not exec: stay around to delete the keyring dir. dbus-run-session tears down the bus
# (and with it gnome-keyring-daemon) when the command exits.
rc=0
dbus-run-session --config-file="$AIRLOCK_KEYRING_HOME/bus.conf" -- \
  bash "$SELF" --__inside-private-bus "$@" || rc=$?
exit "$rc"
