#!/usr/bin/env bash
# Builds the dashboard and the playground (apps/dashboard/dist, served by the api at / and
# /playground): prints the api's GraphQL schema, generates the typed client from it
# (libs/api-client, which the dashboard, the CLI and the MCP server share), bundles with Vite. Everything comes from node_modules: no CDN at build or at run time.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
node -r @swc-node/register apps/api/src/print-schema.ts libs/api-client/schema.graphql
npx --no-install graphql-codegen --config libs/api-client/codegen.ts --silent
npx --no-install vite build --config apps/dashboard/vite.config.ts --logLevel warn
