#!/usr/bin/env bash
# End to end: Examples/LinuxService serves its config and secret files with no desktop keyring,
# and on SIGTERM stops the agent (socket and discovery file removed) and exits 0.
# Usage: .ci/linux-service-test.sh SERVICE_BINARY JARVIS_BINARY
set -euo pipefail
service=$1
jarvis=$2

work=$(mktemp -d)
trap 'kill -9 "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir -m 700 "$work/run"
mkdir "$work/config" "$work/secrets"
printf '{"port": 8080, "debug": false}\n' >"$work/config/service.json"
printf 'sk-never-shown' >"$work/secrets/api_token"
export JARVIS_RUNTIME_DIR="$work/run"

# No D-Bus session either way: the keyring must not be asked for at all.
env -u DBUS_SESSION_BUS_ADDRESS CONFIGURATION_DIRECTORY="$work/config" CREDENTIALS_DIRECTORY="$work/secrets" \
  "$service" >"$work/out" 2>"$work/err" &
pid=$!

# Wait (up to 20 s) for the agent's socket.
for _ in $(seq 200); do
  socket=$(find "$work/run" -name '*.sock' 2>/dev/null | head -n 1)
  [ -n "$socket" ] && break
  kill -0 "$pid" 2>/dev/null || { echo "the service ended early:"; cat "$work/out" "$work/err"; exit 1; }
  sleep 0.1
done
[ -n "$socket" ] || { echo "no agent socket after 20 s"; cat "$work/out" "$work/err"; exit 1; }

listing=$("$jarvis" --agent LinuxService ls 2>&1)
echo "$listing"
echo "$listing" | grep -q 'service.json' || { echo "the config file is not listed"; exit 1; }
echo "$listing" | grep -q 'api_token' || { echo "the secret file is not listed"; exit 1; }
if echo "$listing" | grep -qi 'secret-service\|d-bus\|dbus'; then
  echo "a service that named only secret folders shows the desktop keyring"; exit 1
fi
if echo "$listing" | grep -q 'sk-never-shown'; then echo "a secret was shown"; exit 1; fi

kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[ "$status" -eq 0 ] || { echo "the service exited $status on SIGTERM"; cat "$work/err"; exit 1; }
[ ! -e "$socket" ] || { echo "the socket $socket is still there"; exit 1; }
left=$(ls -A "$work/run")
[ -z "$left" ] || { echo "left in the runtime folder: $left"; exit 1; }
grep -q 'stopped on signal' "$work/out" || { echo "no stop line"; cat "$work/out"; exit 1; }
echo "LinuxService: SIGTERM stopped the agent, removed its socket and discovery file, exit 0"
