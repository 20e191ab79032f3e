#!/usr/bin/env bash
# Provides a `docker compose` v2 binary for validating docker-compose.yml on machines without
# Docker (no engine is needed for `config`). Uses the machine's own if present; otherwise builds
# the pinned release from the Go module proxy into the install folder's bin/ (TROVE_INSTALL_DIR; a few minutes, once).
# Prints the command to use.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
install_lock
COMPOSE_VERSION="${TROVE_COMPOSE_VERSION:-v2.39.4}"
target="$TROVE_INSTALL_DIR/bin/docker-compose-$COMPOSE_VERSION"

if docker compose version >/dev/null 2>&1; then echo "docker compose"; exit 0; fi
if [[ -x "$target" ]]; then echo "$target"; exit 0; fi
command -v go >/dev/null || die "neither 'docker compose' nor Go is available to validate docker-compose.yml"

log "building docker compose $COMPOSE_VERSION from the Go module proxy (once)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  go mod init trove-compose-build >/dev/null 2>&1
  go get "github.com/docker/compose/v2/cmd@$COMPOSE_VERSION" >&2
  mkdir -p "$(dirname "$target")"
  go build -o "$target.tmp" github.com/docker/compose/v2/cmd >&2
  mv "$target.tmp" "$target"
)
echo "$target"
