#!/usr/bin/env bash
# Provides Temporal's production server and its schema tool for `up.sh temporal-server`: builds
# temporal-server and temporal-sql-tool of the pinned release (TEMPORAL_SERVER_VERSION) from the
# Go module proxy into the install folder (TROVE_INSTALL_DIR; many minutes on two cores, once).
# The schema tool carries the release's PostgreSQL schemas inside it. Prints the install folder.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
install_lock temporal-server
home="$TEMPORAL_SERVER_HOME"

if [[ -x "$home/temporal-server" && -x "$home/temporal-sql-tool" ]]; then echo "$home"; exit 0; fi
command -v go >/dev/null || die "Go is needed to build the Temporal server (go.temporal.io/server $TEMPORAL_SERVER_VERSION)"

log "building the Temporal server $TEMPORAL_SERVER_VERSION from the Go module proxy (once, many minutes)"
started=$SECONDS
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  go mod init trove-temporal-server-build >/dev/null 2>&1
  # The packages, not just the module: go.sum then lists every dependency the commands import.
  go get "go.temporal.io/server/cmd/server@$TEMPORAL_SERVER_VERSION" \
    "go.temporal.io/server/cmd/tools/sql@$TEMPORAL_SERVER_VERSION" >&2
  mkdir -p "$work/out"
  go build -o "$work/out/temporal-server" go.temporal.io/server/cmd/server >&2
  go build -o "$work/out/temporal-sql-tool" go.temporal.io/server/cmd/tools/sql >&2
  # Into place in one step: a folder with both binaries is a finished install.
  rm -rf "$home.tmp" "$home"
  mv "$work/out" "$home.tmp"
  chmod 755 "$home.tmp"
  mv "$home.tmp" "$home"
)
log "built the Temporal server in $((SECONDS - started)) s"
echo "$home"
