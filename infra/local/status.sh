#!/usr/bin/env bash
# Prints whether each local service answers its health check, and where.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
row() { printf '  %-24s %-5s %s\n' "$1" "$2" "$3"; }
echo "Trove local services ($TROVE_LOCAL_DIR):"
# A cluster: one row per node (TROVE_ES_NODES, or the nodes with a pid file here), with the
# cluster's health as that node sees it.
es_rows=$ES_NODES
for node in $(es_cluster_pid_nodes); do ((${node#elasticsearch-} <= es_rows)) || es_rows=${node#elasticsearch-}; done
if [[ "$ES_NODES" == 1 && -z "$(es_cluster_pid_nodes)" ]]; then
  if es_healthy; then row elasticsearch up "http://127.0.0.1:$ES_PORT"; else row elasticsearch down "http://127.0.0.1:$ES_PORT"; fi
else
  for i in $(seq 1 "$es_rows"); do
    url="http://127.0.0.1:$(es_node_port "$i")"
    health="$(curl -fsS "$url/_cluster/health?master_timeout=1s" 2>/dev/null || true)"
    if [[ -n "$health" ]]; then
      row "elasticsearch-$i" up "$url  (trove-local-$i; cluster $(sed -E 's/.*"status":"([a-z]+)".*"number_of_nodes":([0-9]+).*/\1, \2 nodes/' <<<"$health"))"
    elif curl -fsS "$url/" >/dev/null 2>&1; then
      row "elasticsearch-$i" up "$url  (trove-local-$i; no elected master yet)"
    else
      row "elasticsearch-$i" down "$url"
    fi
  done
fi
if temporal_healthy; then row temporal up "127.0.0.1:$TEMPORAL_PORT  (web UI http://127.0.0.1:$TEMPORAL_UI_PORT)"; else row temporal down "127.0.0.1:$TEMPORAL_PORT"; fi
if embedder_healthy; then row embedder up "http://127.0.0.1:$EMBEDDER_PORT/v1"; else row embedder down "http://127.0.0.1:$EMBEDDER_PORT/v1"; fi
if embedder_query_healthy; then row embedder-query up "http://127.0.0.1:$EMBEDDER_QUERY_PORT/v1"; else row embedder-query down "http://127.0.0.1:$EMBEDDER_QUERY_PORT/v1"; fi
if postgres_healthy; then row postgresql up "postgres://trove@127.0.0.1:$PG_PORT/trove"; else row postgresql down "postgres://trove@127.0.0.1:$PG_PORT/trove"; fi
if keycloak_healthy; then row keycloak up "http://127.0.0.1:$KEYCLOAK_PORT/realms/trove  (OpenID Provider; demo user demo/demo)"; elif [[ -f "$KEYCLOAK_HOME/.trove-built" ]]; then row keycloak down "http://127.0.0.1:$KEYCLOAK_PORT/realms/trove"; fi
# The production server, once installed: one row while none of its services listens, else a row
# per service (the frontend's names the address Trove takes).
if [[ -x "$TEMPORAL_SERVER_HOME/temporal-server" ]]; then
  listening=()
  for service in "${TEMPORAL_SERVER_SERVICES[@]}"; do
    port_listening "$(temporal_server_port "$service")" && listening+=("$service")
  done
  if ((${#listening[@]} == 0)); then
    row temporal-server down "127.0.0.1:$TEMPORAL_SERVER_PORT"
  else
    for service in "${TEMPORAL_SERVER_SERVICES[@]}"; do
      where="127.0.0.1:$(temporal_server_port "$service")"
      [[ "$service" == frontend ]] && where+="  (TROVE_TEMPORAL_ADDRESS; PostgreSQL databases $TEMPORAL_SERVER_DB, ${TEMPORAL_SERVER_DB}_visibility)"
      if [[ " ${listening[*]} " == *" $service "* ]]; then
        [[ "$service" != frontend ]] || temporal_server_healthy || where+="  (not serving yet)"
        row "temporal-server-$service" up "$where"
      else
        row "temporal-server-$service" down "$where"
      fi
    done
  fi
fi
if seaweedfs_healthy; then row seaweedfs up "http://127.0.0.1:$SEAWEEDFS_PORT  (S3 API, bucket $SEAWEEDFS_BUCKET; keys in $SEAWEEDFS_KEYS_FILE)"; elif [[ -x "$SEAWEEDFS_BIN" ]]; then row seaweedfs down "http://127.0.0.1:$SEAWEEDFS_PORT"; fi
