#!/usr/bin/env bash
# Debian's Chromium for the dashboard's browser tests (driven by playwright-core; no browser
# download from anywhere but the distribution's packages). Idempotent: does nothing when a
# Chromium is already on the PATH or at TROVE_CHROMIUM.
set -euo pipefail
if [[ -n "${TROVE_CHROMIUM:-}" && -x "${TROVE_CHROMIUM}" ]]; then exit 0; fi
if command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then exit 0; fi
command -v apt-get >/dev/null || { echo "Chromium is missing: install it, or set TROVE_CHROMIUM to its binary" >&2; exit 1; }
SUDO=""
if [[ "$(id -u)" != 0 ]]; then SUDO="sudo"; fi
echo "[trove] installing Chromium from the distribution's packages (for the browser tests)"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core fonts-wqy-microhei >/dev/null
command -v chromium >/dev/null
