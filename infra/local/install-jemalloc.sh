#!/usr/bin/env bash
# jemalloc, the memory allocator the api and the worker run with (scripts/apps.sh preloads it):
# glibc's malloc keeps the pages threads free (parsing threads, sharp, Tesseract), and a worker's
# resident memory stayed far above what it used. From Debian's libjemalloc2 package: the system's
# copy when it has one, else extracted into $TROVE_INSTALL_DIR/jemalloc (`apt-get download` needs
# no root; the package lists are refreshed, as root, only when the package is not found).
# Prints the library's path. Idempotent.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
for candidate in "$TROVE_INSTALL_DIR/jemalloc/libjemalloc.so.2" /usr/lib/*-linux-gnu/libjemalloc.so.2 /usr/lib/libjemalloc.so.2; do
  [[ -f "$candidate" ]] && { echo "$candidate"; exit 0; }
done
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || {
  echo "jemalloc is missing and apt-get is not available: install your distribution's jemalloc, or set TROVE_JEMALLOC=0" >&2
  exit 1
}
echo "[trove] installing jemalloc from Debian's libjemalloc2 package into $TROVE_INSTALL_DIR/jemalloc" >&2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! (cd "$work" && apt-get download -qq libjemalloc2 >/dev/null 2>&1); then
  [[ "$(id -u)" == 0 ]] || { echo "apt-get download libjemalloc2 failed; run 'sudo apt-get update' and try again" >&2; exit 1; }
  apt-get update -qq
  (cd "$work" && apt-get download -qq libjemalloc2) || { echo "could not download libjemalloc2" >&2; exit 1; }
fi
dpkg-deb -x "$work"/libjemalloc2_*.deb "$work/x"
library="$(find "$work/x" -name libjemalloc.so.2 | head -1)"
[[ -n "$library" ]] || { echo "libjemalloc2 has no libjemalloc.so.2" >&2; exit 1; }
mkdir -p "$TROVE_INSTALL_DIR/jemalloc"
cp "$library" "$TROVE_INSTALL_DIR/jemalloc/libjemalloc.so.2.tmp"
mv "$TROVE_INSTALL_DIR/jemalloc/libjemalloc.so.2.tmp" "$TROVE_INSTALL_DIR/jemalloc/libjemalloc.so.2"
echo "$TROVE_INSTALL_DIR/jemalloc/libjemalloc.so.2"
