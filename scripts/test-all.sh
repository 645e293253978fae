#!/usr/bin/env bash
# The whole suite: unit + integration (PGlite, or the Postgres in DATABASE_URL), one production build,
# system tests of the built service (shutdown, database outage), the e2e journeys in Chromium against
# it with a secret scan of what they left, and a smoke test of the embedded default.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== unit + integration (vitest)"
npx vitest run

echo "== build"
npx next build

echo "== system: the built service under signals and faults"
npx vitest run --config vitest.system.config.ts

echo "== e2e (playwright, system chromium)"
npx playwright test

echo "== secret scan: the e2e server's database, log and the recorded answers"
npx tsx scripts/secret-scan.ts

echo "== smoke: embedded default, no configuration"
bash scripts/smoke-embedded.sh
