#!/usr/bin/env bash
# Proves the Drizzle schema and the committed migrations agree: generating from the schema must
# produce nothing new. (Migrations are also applied to a real Postgres by the integration suite.)
set -euo pipefail
cd "$(dirname "$0")/.."
listing() { find drizzle -type f | sort; }
before=$(listing)
output=$(npx drizzle-kit generate --name drift_check 2>&1)
created=$(comm -13 <(echo "$before") <(listing))
if [ -n "$created" ] || ! echo "$output" | grep -q "No schema changes"; then
  echo "$output"
  # Leave the tree as it was: drop what the check generated.
  [ -n "$created" ] && rm -f $created && git checkout -- drizzle/meta/_journal.json 2>/dev/null
  echo "Schema and migrations disagree: run 'npm run db:generate' and commit the migration." >&2
  exit 1
fi
echo "migrations: schema and committed migrations agree"
