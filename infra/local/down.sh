#!/usr/bin/env bash
# Stops the local services started by up.sh (all, or the ones named). Data is kept.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

stop_one() {
  local name="$1" pidfile="$RUN_DIR/$1.pid"
  if ! is_running "$name"; then rm -f "$pidfile"; return; fi
  local pid; pid="$(cat "$pidfile")"
  log "stopping $name (pid $pid)"
  # setsid made the service a process-group leader: signal the whole group.
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then kill -KILL -- "-$pid" 2>/dev/null || true; fi
  rm -f "$pidfile"
}

services=("$@")
[[ ${#services[@]} -gt 0 ]] || services=(postgresql embedder temporal elasticsearch)
for s in "${services[@]}"; do stop_one "$s"; done
