#!/usr/bin/env bash
# Provides the pinned `helm` v3 for checking infra/helm/trove (lint, template): builds it from the
# Go module proxy into the install folder's bin/ (TROVE_INSTALL_DIR; a few minutes, once). Prints the command to use.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
install_lock
HELM_VERSION="${TROVE_HELM_VERSION:-v3.22.0}"
target="$TROVE_INSTALL_DIR/bin/helm-$HELM_VERSION"

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
  # Stamped as helm's own Makefile does: without the Kubernetes version (client-go v0.X is
  # Kubernetes 1.X) `helm template` assumes v1.20 and refuses charts that need a newer one.
  client_go="$(go list -m -f '{{.Version}}' k8s.io/client-go)" # v0.37.0
  kube_minor="$(cut -d. -f2 <<<"$client_go")"
  ldflags="-X helm.sh/helm/v3/internal/version.version=$HELM_VERSION"
  for pkg in pkg/lint/rules pkg/chartutil; do
    ldflags+=" -X helm.sh/helm/v3/$pkg.k8sVersionMajor=1 -X helm.sh/helm/v3/$pkg.k8sVersionMinor=$kube_minor"
  done
  go build -ldflags "$ldflags" -o "$target.tmp" helm.sh/helm/v3/cmd/helm >&2
  mv "$target.tmp" "$target"
)
echo "$target"
