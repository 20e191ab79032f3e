#!/usr/bin/env bash
# Provides `prometheus` and `promtool` for the metrics tests: builds the pinned release from the Go
# module proxy into the install folder's bin/ (TROVE_INSTALL_DIR; several minutes, once). Build tags:
# - no `builtinassets` (opt-in): the binary carries no web UI (its assets need a Node build of
#   web/ui, which the module does not ship); the server, its HTTP API (/api/v1/*) and the scraper
#   do not need it;
# - `remove_all_sd`: leaves out the cloud service discoveries (AWS, Azure, GCE, Kubernetes…),
#   most of the build; the tests scrape static targets.
# Prints two lines: the prometheus binary, then the promtool binary.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
install_lock
PROMETHEUS_VERSION="${TROVE_PROMETHEUS_VERSION:-v0.316.0}"
prometheus="$TROVE_INSTALL_DIR/bin/prometheus-$PROMETHEUS_VERSION"
promtool="$TROVE_INSTALL_DIR/bin/promtool-$PROMETHEUS_VERSION"

if [[ -x "$prometheus" && -x "$promtool" ]]; then printf '%s\n%s\n' "$prometheus" "$promtool"; exit 0; fi
command -v go >/dev/null || die "Go is needed to build prometheus and promtool (github.com/prometheus/prometheus $PROMETHEUS_VERSION)"

log "building prometheus and promtool $PROMETHEUS_VERSION from the Go module proxy (once)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  go mod init trove-prometheus-build >/dev/null 2>&1
  # The packages, not just the module: go.sum then lists every dependency the two commands import.
  go get "github.com/prometheus/prometheus/cmd/prometheus@$PROMETHEUS_VERSION" \
    "github.com/prometheus/prometheus/cmd/promtool@$PROMETHEUS_VERSION" >&2
  mkdir -p "$(dirname "$prometheus")"
  go build -tags remove_all_sd -o "$prometheus.tmp" github.com/prometheus/prometheus/cmd/prometheus >&2
  go build -tags remove_all_sd -o "$promtool.tmp" github.com/prometheus/prometheus/cmd/promtool >&2
  mv "$prometheus.tmp" "$prometheus"
  mv "$promtool.tmp" "$promtool"
)
printf '%s\n%s\n' "$prometheus" "$promtool"
