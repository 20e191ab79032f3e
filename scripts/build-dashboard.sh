#!/usr/bin/env bash
# Builds the dashboard and the playground (apps/dashboard/dist, served by the api at / and
# /playground): prints the api's GraphQL schema, generates the typed client from it
# (libs/api-client, which the dashboard, the CLI and the MCP server share), bundles with Vite. Everything comes from node_modules: no CDN at build or at run time.
#
# The bundle is kept by the hash of what Vite reads (the dashboard, the api client with the
# generated operations, the domain lib, the lock file) in the install folder shared by every
# checkout (TROVE_INSTALL_DIR, see infra/local/env.sh): a checkout whose inputs match a kept build
# copies it instead of bundling again. TROVE_DASHBOARD_REBUILD=1 always bundles.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
node -r @swc-node/register apps/api/src/print-schema.ts libs/api-client/schema.graphql
npx --no-install graphql-codegen --config libs/api-client/codegen.ts --silent

inputs=(apps/dashboard libs/api-client libs/domain package-lock.json tsconfig.base.json)
# Every input file's path and content, tracked or not (ignored ones, such as dist/, excluded).
key="$(git ls-files -z --cached --others --exclude-standard -- "${inputs[@]}" | LC_ALL=C sort -z |
  xargs -0 sha256sum 2>/dev/null | sha256sum | cut -c1-16)"
install_dir="$(source infra/local/env.sh && echo "$TROVE_INSTALL_DIR")"
kept="$install_dir/dashboard-builds/$key"
dist=apps/dashboard/dist

if [[ "${TROVE_DASHBOARD_REBUILD:-0}" != 1 && -f "$kept/.complete" ]]; then
  rm -rf "$dist" && mkdir -p "$dist" && cp -R "$kept/." "$dist/" && rm -f "$dist/.complete"
  echo "[trove] dashboard: the build of these sources ($key) is kept in $kept; copied"
  exit 0
fi
npx --no-install vite build --config apps/dashboard/vite.config.ts --logLevel warn
# Keep it (written aside, then moved: a build half copied is never found) and the last few only.
mkdir -p "$install_dir/dashboard-builds"
tmp="$(mktemp -d "$install_dir/dashboard-builds/.tmp-XXXXXX")"
cp -R "$dist/." "$tmp/" && touch "$tmp/.complete"
rm -rf "$kept" && mv "$tmp" "$kept" || rm -rf "$tmp"
ls -1dt "$install_dir"/dashboard-builds/*/ 2>/dev/null | tail -n +6 | xargs -r rm -rf
