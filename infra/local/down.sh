#!/usr/bin/env bash
# Stops the local services started by up.sh (all, or the ones named). Data is kept.
#   down.sh elasticsearch     stops the single node or every node of a cluster (TROVE_ES_NODES > 1)
#   down.sh elasticsearch-2   stops node 2 of a cluster alone
#   down.sh temporal-server   stops the four services of Temporal's production server
#   down.sh temporal-server-history   stops one of them
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

stop_one() {
  local name="$1" pidfile="$RUN_DIR/$1.pid"
  if ! is_running "$name"; then rm -f "$pidfile"; return; fi
  local pid; pid="$(cat "$pidfile")"
  log "stopping $name (pid $pid)"
  # PostgreSQL's SIGTERM is a "smart" shutdown that waits for every client to disconnect (a
  # running worker's pool never does); SIGINT is pg_ctl's default "fast" shutdown: clients are
  # disconnected and the server exits cleanly, removing its lock file.
  local signal=TERM
  [[ "$name" == postgresql ]] && signal=INT
  # setsid made the service a process-group leader: signal the whole group.
  kill "-$signal" -- "-$pid" 2>/dev/null || kill "-$signal" "$pid" 2>/dev/null || true
  for _ in $(seq 1 60); do pid_alive "$pid" || break; sleep 0.5; done
  if pid_alive "$pid"; then
    log "$name did not stop within 30 s; killing it"
    kill -KILL -- "-$pid" 2>/dev/null || true
    # Until the process is gone, a restart would find it still holding its ports and lock files.
    for _ in $(seq 1 20); do pid_alive "$pid" || break; sleep 0.5; done
  fi
  rm -f "$pidfile"
}

services=("$@")
[[ ${#services[@]} -gt 0 ]] || services=(temporal-server seaweedfs keycloak postgresql embedder-query embedder temporal elasticsearch)
for s in "${services[@]}"; do
  case "$s" in
    # Whatever TROVE_ES_NODES says now: every node that has a pid file here.
    elasticsearch) for node in elasticsearch $(es_cluster_pid_nodes); do stop_one "$node"; done ;;
    temporal-server) for service in "${TEMPORAL_SERVER_SERVICES[@]}"; do stop_one "temporal-server-$service"; done ;;
    *) stop_one "$s" ;;
  esac
done
