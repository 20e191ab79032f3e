#!/usr/bin/env bash
# Provides `weed` (SeaweedFS), the S3-compatible object store that the object-storage tests and
# `up.sh seaweedfs` run: builds the pinned module version from the Go module proxy into the install
# folder's bin/ (TROVE_INSTALL_DIR; several minutes, once). Prints the weed binary.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
install_lock seaweedfs
weed="$SEAWEEDFS_BIN"

if [[ -x "$weed" ]]; then echo "$weed"; exit 0; fi
command -v go >/dev/null || die "Go is needed to build SeaweedFS (github.com/seaweedfs/seaweedfs $SEAWEEDFS_VERSION)"

log "building SeaweedFS $SEAWEEDFS_VERSION from the Go module proxy (once, several minutes)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  go mod init trove-seaweedfs-build >/dev/null 2>&1
  # The package, not just the module: go.sum then lists every dependency the command imports.
  go get "github.com/seaweedfs/seaweedfs/weed@$SEAWEEDFS_VERSION" >&2
  mkdir -p "$(dirname "$weed")"
  go build -o "$weed.tmp" github.com/seaweedfs/seaweedfs/weed >&2
  mv "$weed.tmp" "$weed"
)
echo "$weed"
