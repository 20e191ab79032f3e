#!/usr/bin/env bash
# Prints whether each local service answers its health check, and where.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
row() { printf '  %-15s %-5s %s\n' "$1" "$2" "$3"; }
echo "Trove local services ($TROVE_LOCAL_DIR):"
if es_healthy; then row elasticsearch up "http://127.0.0.1:$ES_PORT"; else row elasticsearch down "http://127.0.0.1:$ES_PORT"; fi
if temporal_healthy; then row temporal up "127.0.0.1:$TEMPORAL_PORT  (web UI http://127.0.0.1:$TEMPORAL_UI_PORT)"; else row temporal down "127.0.0.1:$TEMPORAL_PORT"; fi
if embedder_healthy; then row embedder up "http://127.0.0.1:$EMBEDDER_PORT/v1"; else row embedder down "http://127.0.0.1:$EMBEDDER_PORT/v1"; fi
if embedder_query_healthy; then row embedder-query up "http://127.0.0.1:$EMBEDDER_QUERY_PORT/v1"; else row embedder-query down "http://127.0.0.1:$EMBEDDER_QUERY_PORT/v1"; fi
if postgres_healthy; then row postgresql up "postgres://trove@127.0.0.1:$PG_PORT/trove"; else row postgresql down "postgres://trove@127.0.0.1:$PG_PORT/trove"; fi
