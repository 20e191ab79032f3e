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

# A fresh checkout (as CI clones one) gets its node_modules copied from the machine's last install
# of the same package-lock.json and node version, kept in $TROVE_INSTALL_DIR/node-modules/<hash>
# (the newest two): npm install took 59 s in a fresh clone here, the copy 6.6 s. A checkout
# with a node_modules of its own installs into it as usual. TROVE_NODE_MODULES_CACHE=0: npm only.
node_modules_cache() { # prints the machine's folder of kept installs ("" when off)
  [[ "${TROVE_NODE_MODULES_CACHE:-1}" == 0 ]] && return 0
  echo "$(source "$ROOT/infra/local/env.sh" && echo "$TROVE_INSTALL_DIR")/node-modules"
}
node_modules_key() { # the install's identity: the lock file, node's version, the machine's architecture
  { cat "$ROOT/package-lock.json"; node --version; uname -m; } | sha256sum | cut -c1-16
}

ensure_node_modules() {
  if [[ ! -d "$ROOT/node_modules/.bin" || "$ROOT/package-lock.json" -nt "$ROOT/node_modules/.package-lock.json" ]]; then
    local cache key
    cache="$(node_modules_cache)"
    key="$(node_modules_key)"
    if [[ -n "$cache" && -d "$cache/$key/node_modules/.bin" && ! -e "$ROOT/node_modules" ]]; then
      say "copying the npm dependencies installed for this package-lock.json before ($cache/$key)"
      # Copied aside, then renamed: an interrupted copy leaves no half node_modules behind.
      if cp -a "$cache/$key/node_modules" "$ROOT/node_modules.copy.$$" \
        && mv -T "$ROOT/node_modules.copy.$$" "$ROOT/node_modules"; then
        touch "$ROOT/node_modules/.package-lock.json"
        return 0
      fi
      rm -rf "$ROOT/node_modules.copy.$$"
    fi
    say "installing npm dependencies"
    # npm install, not npm ci: this registry lacks other platforms' optional binaries (e.g.
    # @swc/core-darwin-arm64), so the lock file cannot list them and npm ci refuses it.
    (cd "$ROOT" && npm install --no-audit --no-fund) || return 1
    [[ -n "$cache" && ! -d "$cache/$key" ]] || return 0
    # Kept for the next fresh checkout, as npm left it; written aside, then renamed. Older installs go.
    mkdir -p "$cache/.$key.$$"
    { cp -a "$ROOT/node_modules" "$cache/.$key.$$/" && mv -T "$cache/.$key.$$" "$cache/$key"; } 2>/dev/null \
      || rm -rf "$cache/.$key.$$"
    # shellcheck disable=SC2012 # names are hex keys
    ls -1t "$cache" | tail -n +3 | while read -r old; do rm -rf "${cache:?}/$old"; done
  fi
  return 0
}
