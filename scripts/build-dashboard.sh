#!/usr/bin/env bash
# Builds the dashboard and the playground (apps/dashboard/dist, served by the api at / and
# /playground): prints the api's GraphQL schema, generates the typed clients from it (the
# dashboard's, and libs/api-client's for the CLI and the MCP server), bundles with Vite. Everything comes from node_modules: no CDN at build or at run time.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
node -r @swc-node/register apps/api/src/print-schema.ts apps/dashboard/schema.graphql
npx --no-install graphql-codegen --config apps/dashboard/codegen.ts --silent
npx --no-install graphql-codegen --config libs/api-client/codegen.ts --silent
npx --no-install vite build --config apps/dashboard/vite.config.ts --logLevel warn
