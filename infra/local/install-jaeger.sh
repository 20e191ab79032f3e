#!/usr/bin/env bash
# Provides `jaeger` (the v2 all-in-one: OTLP receiver, in-memory storage, query API) for the
# tracing test: builds the pinned release from the Go module proxy into the install folder's bin/ (TROVE_INSTALL_DIR; several
# minutes, once). Built without the `ui` tag: the binary serves a placeholder page instead of the
# web UI (whose assets need a Node build of jaeger-ui, which the module does not ship); the OTLP
# receiver and the HTTP query API (/api/traces, /api/v3/traces) do not need it.
# Prints the jaeger binary.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
install_lock
JAEGER_VERSION="${TROVE_JAEGER_VERSION:-v1.76.0}"
jaeger="$TROVE_INSTALL_DIR/bin/jaeger-$JAEGER_VERSION"

if [[ -x "$jaeger" ]]; then echo "$jaeger"; exit 0; fi
command -v go >/dev/null || die "Go is needed to build jaeger (github.com/jaegertracing/jaeger $JAEGER_VERSION)"

log "building jaeger $JAEGER_VERSION from the Go module proxy (once)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  go mod init trove-jaeger-build >/dev/null 2>&1
  # The package, not just the module: go.sum then lists every dependency the command imports.
  go get "github.com/jaegertracing/jaeger/cmd/jaeger@$JAEGER_VERSION" >&2
  mkdir -p "$(dirname "$jaeger")"
  go build -o "$jaeger.tmp" github.com/jaegertracing/jaeger/cmd/jaeger >&2
  mv "$jaeger.tmp" "$jaeger"
)
echo "$jaeger"
