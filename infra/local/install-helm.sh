#!/usr/bin/env bash
# Provides the pinned `helm` v3 for checking infra/helm/trove (lint, template): builds it from the
# Go module proxy into .trove/local/bin (a few minutes, once). Prints the command to use.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
HELM_VERSION="${TROVE_HELM_VERSION:-v3.22.0}"
target="$TROVE_LOCAL_DIR/bin/helm-$HELM_VERSION"

if [[ -x "$target" ]]; then echo "$target"; exit 0; fi
command -v go >/dev/null || die "Go is needed to build helm $HELM_VERSION (or put it at $target)"

log "building helm $HELM_VERSION from the Go module proxy (once)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  go mod init trove-helm-build >/dev/null 2>&1
  go get "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" >&2
  mkdir -p "$(dirname "$target")"
  # helm's own Makefile stamps the version the same way; without it `helm version` says v3.x-dev.
  go build -ldflags "-X helm.sh/helm/v3/internal/version.version=$HELM_VERSION" \
    -o "$target.tmp" helm.sh/helm/v3/cmd/helm >&2
  mv "$target.tmp" "$target"
)
echo "$target"
