# Start/stop helpers for the Trove api and worker processes. Sourced by quickstart.sh and stop.sh.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APP_RUN="$ROOT/.trove/run"
APP_LOGS="$ROOT/.trove/logs"
mkdir -p "$APP_RUN" "$APP_LOGS"

say() { printf '\033[1m[trove]\033[0m %s\n' "$*"; }

app_running() { [[ -f "$APP_RUN/$1.pid" ]] && kill -0 "$(cat "$APP_RUN/$1.pid")" 2>/dev/null; }

# What the apps preload (LD_PRELOAD): jemalloc, which gives back the pages threads free where glibc's
# malloc keeps them (a worker's memory; docs/operations.md), unless TROVE_JEMALLOC=0. Installed once
# from Debian's package by infra/local/install-jemalloc.sh; without it the apps run on glibc's malloc.
memory_allocator() {
  local library=""
  if [[ "${TROVE_JEMALLOC:-1}" != 0 ]]; then
    library="$(bash "$ROOT/infra/local/install-jemalloc.sh")" \
      || { say "jemalloc is not available: the apps use glibc's malloc (more resident memory)" >&2; library=""; }
  fi
  echo "${library}${LD_PRELOAD:+${library:+:}$LD_PRELOAD}"
}

start_app() { # name node-arguments...
  local name="$1"; shift
  cd "$ROOT"
  # glibc gives each thread that allocates its own malloc arena and rarely returns their free
  # pages: with parsing threads, sharp and Tesseract that is 100-150 MB of a worker. Two suffice.
  # V8 grows its heap in larger steps before collecting when its limit is the machine's default
  # (up to 4 GB) than under a 1 GB limit, far above the ~150 MB a worker's main thread keeps live.
  MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}" NODE_OPTIONS="${NODE_OPTIONS:---max-old-space-size=1024}" \
    LD_PRELOAD="$(memory_allocator)" \
    nohup setsid node "$@" >>"$APP_LOGS/$name.log" 2>&1 </dev/null &
  echo $! >"$APP_RUN/$name.pid"
}

# node's arguments for the api or the worker: its bundle (scripts/build-apps.js) while current, else
# its TypeScript entry compiled on the fly (scripts/app-entry.js decides).
app_args() { # app
  node "$ROOT/scripts/app-entry.js" "$1"
}

stop_app() {
  local name="$1"
  if ! app_running "$name"; then rm -f "$APP_RUN/$name.pid"; return; fi
  local pid; pid="$(cat "$APP_RUN/$name.pid")"
  say "stopping $name (pid $pid)"
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$APP_RUN/$name.pid"
}

ensure_node_modules() {
  if [[ ! -d "$ROOT/node_modules/.bin" || "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]]; then
    say "installing npm dependencies"
    # npm install, not npm ci: this registry lacks other platforms' optional binaries (e.g.
    # @swc/core-darwin-arm64), so the lock file cannot list them and npm ci refuses it.
    (cd "$ROOT" && npm install --no-audit --no-fund)
  fi
}
