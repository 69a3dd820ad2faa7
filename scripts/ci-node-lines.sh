#!/usr/bin/env bash
# CI stage after `npm test` (Node 20): the adapter, gateway and store suites on Node 22 and 24
# (binaries from the `node` package on npm, in a scratch folder), the adapters against the other
# framework majors (vitest.majors.config.ts: the newest on Node 22, the previous on Node 20), and
# the packed tarball in fresh projects (vitest.package.config.ts, Node 22). On Node 22/24 the
# SQLite store runs on node:sqlite (better-sqlite3 here is built for Node 20).
set -euo pipefail
cd "$(dirname "$0")/.."
lines="$(mktemp -d)"
trap 'rm -rf "$lines"' EXIT
vitest=node_modules/vitest/vitest.mjs
for v in 22 24; do
  npm install --prefix "$lines/$v" --no-audit --no-fund --no-save --loglevel=error "node@$v" >/dev/null
  echo "node line $v: $("$lines/$v/node_modules/node/bin/node" --version)"
done
n22="$lines/22/node_modules/node/bin/node"
n24="$lines/24/node_modules/node/bin/node"

echo "== previous framework majors (Node $(node --version))"
TRC_MAJORS=previous node "$vitest" run -c vitest.majors.config.ts
echo "== newest framework majors (Node 22)"
TRC_MAJORS=newest "$n22" "$vitest" run -c vitest.majors.config.ts
for n in "$n22" "$n24"; do
  echo "== adapter, gateway and store suites on Node $("$n" --version)"
  "$n" "$vitest" run test/adapters test/gateway test/store
done
echo "== the packed tarball (Node 22)"
"$n22" "$vitest" run -c vitest.package.config.ts
