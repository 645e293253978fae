#!/usr/bin/env bash
# What a new user does first, checked as they would do it: README's run command, copied literally from
# its "Two commands" section, in a fresh copy of the repository, with nothing configured and the
# machine's own Node.js first on PATH (CI's machine has Node.js 20, older than the service supports:
# npm must bring a supported one). Passes when /api/health answers and the service runs on a supported
# Node.js line. Takes a few minutes (npm ci and next build in the copy); part of .ci/run, not npm test.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

# The run command is the first sh block after the "## Two commands" heading.
RUN_COMMAND=$(awk '/^## Two commands/ { section = 1 } section && /^```sh$/ { getline; print; exit }' README.md)
[ -n "$RUN_COMMAND" ] || { echo "readme-run: no run command found in README.md"; exit 1; }

# The machine's PATH, without the node_modules/.bin entries npm puts first when this runs as a script.
MACHINE_PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v 'node_modules/\.bin$' | paste -sd: -)
echo "readme-run: machine Node.js $(PATH=$MACHINE_PATH node -v); command: $RUN_COMMAND"

WORK=$(mktemp -d)
COPY="$WORK/identity-service"
mkdir "$COPY"
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$ROOT" ls-files -z --cached --others --exclude-standard | tar --null --ignore-failed-read -T - -cf - | tar -xf - -C "$COPY"
else
  tar --exclude=./node_modules --exclude=./.next --exclude=./.data --exclude=./test-results -cf - . | tar -xf - -C "$COPY"
fi
PORT=$(node scripts/free-port.mjs)

cleanup() {
  [ -n "${PID:-}" ] && kill -- -"$PID" 2>/dev/null
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# A new user's environment: PATH and HOME only (npm's cache and config live under HOME).
(cd "$COPY" && exec setsid env -i PATH="$MACHINE_PATH" HOME="$HOME" PORT="$PORT" bash -c "$RUN_COMMAND") > "$WORK/run.log" 2>&1 &
PID=$!

HEALTH=""
for _ in $(seq 1 600); do
  if ! kill -0 "$PID" 2>/dev/null; then
    tail -40 "$WORK/run.log"; echo "readme-run: the run command exited before the service answered"; exit 1
  fi
  HEALTH=$(curl -fsS "http://localhost:$PORT/api/health" 2>/dev/null) && break
  sleep 1
done
[ -n "$HEALTH" ] || { tail -40 "$WORK/run.log"; echo "readme-run: /api/health did not answer within 10 minutes"; exit 1; }

grep -q 'is not supported' "$WORK/run.log" && { tail -20 "$WORK/run.log"; echo "readme-run: the service refused its runtime"; exit 1; }
echo "readme-run: /api/health answered on port $PORT: $HEALTH"

# The runtime of the process that serves: the node executable running next in the process group.
SERVED_BY=""
for pid in $(pgrep -g "$PID"); do
  exe=$(readlink "/proc/$pid/exe" 2>/dev/null) || continue
  [ "$(basename "$exe")" = node ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q next || continue
  SERVED_BY=$("$exe" -v)
  break
done
echo "readme-run: the service runs on Node.js ${SERVED_BY:-unknown}"
case "$SERVED_BY" in
  v22.*|v24.*) echo "readme-run: 1 passed, 0 failed" ;;
  *) echo "readme-run: the service does not run on a supported Node.js line"; exit 1 ;;
esac
