#!/usr/bin/env bash
# Discovery, kept apart from gating: runs the bad-input property suite with random base seeds and more
# runs per property than `npm test` (which always uses the fixed seed of tests/properties/run-property.ts),
# and prints the seeds whose run failed. Each failure is a defect to fix and a seed to add to
# tests/properties/regressions.ts. Run it before resolving an issue.
#   PROPERTY_SEARCH_ROUNDS  random seeds to try (default 3)
#   PROPERTY_RUNS           runs per property (default 10)
#   extra arguments go to vitest (e.g. -t "organizations" to search one area)
set -uo pipefail
cd "$(dirname "$0")/.."
rounds=${PROPERTY_SEARCH_ROUNDS:-3}
runs=${PROPERTY_RUNS:-10}
failed=()
for round in $(seq 1 "$rounds"); do
  seed=$(node -e 'console.log(require("node:crypto").randomInt(2 ** 31 - 1))')
  log=$(mktemp)
  echo "== round $round of $rounds: PROPERTY_SEED=$seed PROPERTY_RUNS=$runs"
  if PROPERTY_SEED=$seed PROPERTY_RUNS=$runs npx vitest run tests/properties/bad-input.property.test.ts "$@" > "$log" 2>&1; then
    echo "   passed"
  else
    failed+=("$seed")
    echo "   FAILED; the failing properties:"
    grep -E "failed after [0-9]+ run" "$log" | sed 's/\x1b\[[0-9;]*m//g; s/^/     /'
    echo "   full output: $log"
    continue
  fi
  rm -f "$log"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "seeds that found a defect: ${failed[*]}"
  echo "replay one: PROPERTY_SEED=<seed> PROPERTY_RUNS=$runs npx vitest run tests/properties/bad-input.property.test.ts"
  exit 1
fi
echo "no failure in $rounds round(s)"
