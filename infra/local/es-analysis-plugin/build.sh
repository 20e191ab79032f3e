#!/usr/bin/env bash
# Builds the trove-analysis plugin against an unpacked Elasticsearch and installs it there.
# Usage: build.sh ES_HOME
set -euo pipefail
ES_HOME="$1"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
version="$(basename "$(ls "$ES_HOME"/lib/elasticsearch-[0-9]*.jar)" .jar)"; version="${version#elasticsearch-}"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT
javac --release 17 -nowarn -cp "$ES_HOME/lib/*" -d "$build/classes" $(find "$here/src" -name '*.java')
mkdir -p "$build/plugin"
jar --create --file "$build/plugin/trove-analysis.jar" -C "$build/classes" .
cat >"$build/plugin/plugin-descriptor.properties" <<PROPS
description=English, Russian and CJK analyzers from Lucene for distributions without analysis-common
version=$version
name=trove-analysis
classname=dev.trove.es.TroveAnalysisPlugin
java.version=17
elasticsearch.version=$version
PROPS
rm -rf "$ES_HOME/plugins/trove-analysis"
cp -r "$build/plugin" "$ES_HOME/plugins/trove-analysis"
