#!/usr/bin/env bash
# Tesseract's language data for OCR (libs/ocr), from Debian's tesseract-ocr-* packages: the
# LSTM models Trove recognises English, Russian and simplified Chinese with. Nothing is fetched
# at run time; OCR reads the files from TROVE_OCR_DATA_DIR (default .trove/local/tessdata).
# Idempotent: does nothing when every file is there. `apt-get download` needs no root; the
# package lists are refreshed (as root) only when a package is not found.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LOCAL_DIR="${TROVE_LOCAL_DIR:-$ROOT/.trove/local}"
DATA_DIR="${TROVE_OCR_DATA_DIR:-$LOCAL_DIR/tessdata}"
# Tesseract language codes and the Debian packages that carry them.
declare -A PACKAGES=([eng]=tesseract-ocr-eng [rus]=tesseract-ocr-rus [chi_sim]=tesseract-ocr-chi-sim)

missing=()
for lang in "${!PACKAGES[@]}"; do
  [[ -s "$DATA_DIR/$lang.traineddata" ]] || missing+=("$lang")
done
((${#missing[@]})) || exit 0

command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || {
  echo "OCR language data is missing (${missing[*]}) and apt-get is not available: put ${missing[*]/%/.traineddata} (tessdata_fast) in $DATA_DIR" >&2
  exit 1
}
echo "[trove] installing OCR language data (${missing[*]}) from Debian's tesseract-ocr packages into $DATA_DIR"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$DATA_DIR"
for lang in "${missing[@]}"; do
  package="${PACKAGES[$lang]}"
  if ! (cd "$work" && apt-get download -qq "$package" >/dev/null 2>&1); then
    [[ "$(id -u)" == 0 ]] || { echo "apt-get download $package failed; run 'sudo apt-get update' and try again" >&2; exit 1; }
    apt-get update -qq
    (cd "$work" && apt-get download -qq "$package") || { echo "could not download $package" >&2; exit 1; }
  fi
  dpkg-deb -x "$work"/"$package"_*.deb "$work/$lang"
  file="$(find "$work/$lang" -name "$lang.traineddata" | head -1)"
  [[ -n "$file" ]] || { echo "$package has no $lang.traineddata" >&2; exit 1; }
  cp "$file" "$DATA_DIR/$lang.traineddata.tmp" && mv "$DATA_DIR/$lang.traineddata.tmp" "$DATA_DIR/$lang.traineddata"
done
