#!/usr/bin/env bash
# Provides kubeconform with Kubernetes JSON schemas on disk, for validating the objects the Helm
# chart renders without a cluster or network (kubeconform downloads its schemas from GitHub by
# default). Builds the pinned kubeconform from the Go module proxy, and writes the schemas from
# Kubernetes' own OpenAPI document (api/openapi-spec/swagger.json in the k8s.io/kubernetes module)
# and prometheus-operator's ServiceMonitor CRD (its Go module ships the CRD files), both fetched
# through the Go module proxy. Once; a few minutes. Prints a command that runs kubeconform against
# those schemas (add kubeconform's own flags and files after it).
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
install_lock
KUBECONFORM_VERSION="${TROVE_KUBECONFORM_VERSION:-v0.8.0}"
# The Kubernetes version whose API the chart is checked against, and the operator version whose
# ServiceMonitor CRD is.
KUBERNETES_SCHEMA_VERSION="${TROVE_KUBERNETES_SCHEMA_VERSION:-v1.34.4}"
PROMETHEUS_OPERATOR_VERSION="${TROVE_PROMETHEUS_OPERATOR_VERSION:-v0.85.0}"
binary="$TROVE_INSTALL_DIR/bin/kubeconform-$KUBECONFORM_VERSION"
schemas="$TROVE_INSTALL_DIR/kubernetes-json-schema/$KUBERNETES_SCHEMA_VERSION-operator-$PROMETHEUS_OPERATOR_VERSION"
command="$TROVE_INSTALL_DIR/bin/kubeconform-offline-$KUBECONFORM_VERSION-$KUBERNETES_SCHEMA_VERSION-$PROMETHEUS_OPERATOR_VERSION"

if [[ -x "$command" && -f "$schemas/deployment-apps-v1.json" ]]; then echo "$command"; exit 0; fi
command -v go >/dev/null || die "Go is needed to build kubeconform and fetch the Kubernetes schemas"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
go mod init trove-kubeconform-build >/dev/null 2>&1
mkdir -p "$TROVE_INSTALL_DIR/bin"

if [[ ! -x "$binary" ]]; then
  log "building kubeconform $KUBECONFORM_VERSION from the Go module proxy (once)"
  go get "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION" >&2
  go build -o "$binary.tmp" github.com/yannh/kubeconform/cmd/kubeconform >&2
  mv "$binary.tmp" "$binary"
fi

module_dir() { # module@version: its folder in the module cache
  go mod download -json "$1" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const m=JSON.parse(s);if(m.Error){console.error(m.Error);process.exit(1)}console.log(m.Dir)})'
}
log "writing Kubernetes $KUBERNETES_SCHEMA_VERSION and ServiceMonitor ($PROMETHEUS_OPERATOR_VERSION) schemas (once)"
kubernetes="$(module_dir "k8s.io/kubernetes@$KUBERNETES_SCHEMA_VERSION")"
operator="$(module_dir "github.com/prometheus-operator/prometheus-operator@$PROMETHEUS_OPERATOR_VERSION")"
rm -rf "$schemas.tmp"
(cd "$TROVE_ROOT" && node -r @swc-node/register tools/ci/kubernetes-json-schemas.ts "$schemas.tmp" \
  "$kubernetes/api/openapi-spec/swagger.json" \
  "$operator/example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml")
rm -rf "$schemas" && mv "$schemas.tmp" "$schemas"

cat >"$command.tmp" <<WRAPPER
#!/usr/bin/env bash
# kubeconform against the schemas install-kubeconform.sh wrote; never downloads.
exec "$binary" -strict -schema-location "$schemas/{{ .ResourceKind }}{{ .KindSuffix }}.json" "\$@"
WRAPPER
chmod +x "$command.tmp" && mv "$command.tmp" "$command"
echo "$command"
