#!/usr/bin/env bash
# Starts the built service with no configuration at all (only PATH and HOME), on the embedded
# database in a fresh DATA_DIR working copy, twice: the second start must reuse the generated secrets
# and the migrated database.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=$(node scripts/free-port.mjs)
WORK=$(mktemp -d)
# A scratch working directory that shares the build (and lib/, which next.config.ts loads at start),
# so ./.data is fresh and the repo stays clean.
ln -s "$PWD/.next" "$PWD/node_modules" "$PWD/package.json" "$PWD/drizzle" "$PWD/next.config.ts" "$PWD/lib" "$PWD/public" "$WORK/"
# `npm start` runs the server under npm and a shell: each start gets a process group of its own
# (setsid), and stopping it signals the whole group.
stop() { kill -- "-$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; }
cleanup() { [ -n "${PID:-}" ] && stop; rm -rf "$WORK"; }
trap cleanup EXIT

start() {
  (cd "$WORK" && exec setsid env -i PATH="$PATH" HOME="$HOME" npm start -- -p $PORT) > "$WORK/server.log" 2>&1 &
  PID=$!
  for _ in $(seq 1 60); do
    curl -fsS "http://localhost:$PORT/api/health" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  cat "$WORK/server.log"; echo "smoke: server did not start"; exit 1
}

check() {
  local readiness
  readiness=$(curl -fsS "http://localhost:$PORT/api/v1/readiness")
  echo "$readiness" | grep -q '"id":"database","state":"pass"' || { echo "smoke: database not ready: $readiness"; exit 1; }
  echo "$readiness" | grep -q '"id":"migrations","state":"pass"' || { echo "smoke: migrations not applied: $readiness"; exit 1; }
  curl -fsS "http://localhost:$PORT/" | grep -q 'Identity and access' || { echo "smoke: home page missing"; exit 1; }
  curl -fsS -o /dev/null "http://localhost:$PORT/api/openapi.json" || { echo "smoke: no OpenAPI document"; exit 1; }
}

# A production setting that is missing must stop start-up with a message naming it.
if (cd "$WORK" && env -i PATH="$PATH" HOME="$HOME" DATABASE_URL=postgres://127.0.0.1:1/none timeout 30 npm start -- -p $PORT) > "$WORK/refused.log" 2>&1; then
  echo "smoke: started without production secrets"; exit 1
fi
grep -q "SESSION_SECRET: is required when DATABASE_URL is set" "$WORK/refused.log" || { cat "$WORK/refused.log"; echo "smoke: no clear configuration message"; exit 1; }

start
check
[ -f "$WORK/.data/secrets.json" ] || { echo "smoke: embedded secrets were not generated"; exit 1; }
FIRST=$(sha256sum "$WORK/.data/secrets.json")
stop

start
check
[ "$FIRST" = "$(sha256sum "$WORK/.data/secrets.json")" ] || { echo "smoke: secrets changed across restarts"; exit 1; }

# Local development: the dev mailbox reads back decoded, on /dev/mail and with npm run mail:latest.
curl -fsS -o /dev/null -H "Origin: http://localhost:$PORT" -H 'Content-Type: application/json' \
  -d '{"email":"smoke@example.test"}' "http://localhost:$PORT/api/auth/enrollment/start" || { echo "smoke: enrollment did not start"; exit 1; }
MAILBOX_PAGE=$(curl -fsS "http://localhost:$PORT/dev/mail")
grep -qE '[0-9]{6} is your verification code' <<< "$MAILBOX_PAGE" || { echo "smoke: /dev/mail does not show the code"; exit 1; }
LATEST=$(env -i PATH="$PATH" HOME="$HOME" DATA_DIR="$WORK/.data" node node_modules/.bin/tsx scripts/mail-latest.ts 1)
grep -q 'To: smoke@example.test' <<< "$LATEST" || { echo "smoke: npm run mail:latest does not show the mail: $LATEST"; exit 1; }
echo "smoke: 4 passed, 0 failed"
