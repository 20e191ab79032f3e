#!/usr/bin/env bash
# Installs Keycloak, the local OpenID Provider that sign-in is tested against and the quick start
# signs its demo user in with: the server distribution from Maven Central
# (org.keycloak:keycloak-quarkus-dist, zip) in the machine's install folder (TROVE_INSTALL_DIR,
# one folder per version), built once for its embedded H2 database ("dev-file"; each checkout's
# database lives in its own data folder, see up.sh) with the health endpoints on. Runs on the
# machine's Java 17+. Idempotent: does nothing once the build is done.
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

if [[ -f "$KEYCLOAK_HOME/.trove-built" ]]; then exit 0; fi
install_lock keycloak
# Another checkout may have finished the install while this one waited for the lock.
if [[ -f "$KEYCLOAK_HOME/.trove-built" ]]; then exit 0; fi
command -v java >/dev/null || die "Keycloak needs a Java 17+ runtime (Debian: apt-get install openjdk-17-jre-headless)"
command -v mvn >/dev/null || die "install Maven (Debian: apt-get install maven) to fetch Keycloak from Maven Central"

dl="$TROVE_INSTALL_DIR/downloads"
zip="$dl/keycloak-quarkus-dist-$KEYCLOAK_VERSION.zip"
mkdir -p "$dl"
if [[ ! -s "$zip" ]]; then
  log "installing Keycloak $KEYCLOAK_VERSION (Maven Central keycloak-quarkus-dist, ~170 MB)"
  mvn -q -B dependency:copy \
    "-Dartifact=org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" \
    "-DoutputDirectory=$dl" || die "could not fetch Keycloak $KEYCLOAK_VERSION from Maven Central"
fi
rm -rf "$KEYCLOAK_HOME.tmp" && mkdir -p "$KEYCLOAK_HOME.tmp"
unzip -q "$zip" -d "$KEYCLOAK_HOME.tmp"
staged="$KEYCLOAK_HOME.tmp/keycloak-$KEYCLOAK_VERSION"

# Build-time options, applied once here so every start is `start --optimized` (no re-augmentation:
# a start then takes seconds of CPU instead of a minute). Built in the staging folder, so a build
# cut short leaves no half-built install behind.
log "building Keycloak $KEYCLOAK_VERSION for the local realm (once, about a minute)"
"$staged/bin/kc.sh" build --db=dev-file --health-enabled=true >>"$LOG_DIR/keycloak-build.log" 2>&1 ||
  die "building Keycloak failed; see $LOG_DIR/keycloak-build.log"
touch "$staged/.trove-built"
rm -rf "$KEYCLOAK_HOME"
mv "$staged" "$KEYCLOAK_HOME" && rm -rf "$KEYCLOAK_HOME.tmp"
rm -f "$zip"
log "installed Keycloak $KEYCLOAK_VERSION in $KEYCLOAK_HOME"
