{{- define "trove.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "trove.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "trove.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "trove.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Selector labels of one component: (dict "root" $ "component" "api") */}}
{{- define "trove.selectorLabels" -}}
app.kubernetes.io/name: {{ include "trove.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "trove.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "trove.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "trove.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{/* The Secret holding Trove's own secrets: the one the chart makes, or secrets.existingSecret. */}}
{{- define "trove.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "trove.fullname" .)) }}
{{- end }}

{{- define "trove.publicUrl" -}}
{{- if .Values.api.publicUrl }}
{{- .Values.api.publicUrl }}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts }}
{{- $host := (first .Values.ingress.hosts).host }}
{{- printf "%s://%s" (ternary "https" "http" (gt (len .Values.ingress.tls) 0)) $host }}
{{- end }}
{{- end }}

{{/*
Environment shared by the api and the worker: the non-secret settings come from the ConfigMap;
secrets are referenced one by one, and the URLs that carry a password are assembled by
Kubernetes ($(VAR) expansion), so no password is ever written into a ConfigMap or a pod spec.
*/}}
{{- define "trove.env" -}}
{{- $secret := include "trove.secretName" . -}}
- name: TROVE_ADMIN_API_KEY
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: TROVE_ADMIN_API_KEY } }
{{- range $name := list "TROVE_SECRET_KEY" "TROVE_EMBEDDING_API_KEY" "TROVE_LLM_API_KEY" "TROVE_RERANK_API_KEY" }}
- name: {{ $name }}
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: {{ $name }}, optional: true } }
{{- end }}
{{- if .Values.metrics.enabled }}
- name: TROVE_METRICS_TOKEN
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: TROVE_METRICS_TOKEN } }
{{- end }}
- name: TROVE_DB_PASSWORD
{{- with .Values.database.passwordSecret }}
{{- if .name }}
  valueFrom: { secretKeyRef: { name: {{ .name }}, key: {{ .key }} } }
{{- else }}
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: TROVE_DB_PASSWORD } }
{{- end }}
{{- end }}
- name: TROVE_DATABASE_URL
  value: {{ printf "postgres://%s:$(TROVE_DB_PASSWORD)@%s:%v/%s%s" .Values.database.user .Values.database.host .Values.database.port .Values.database.name (empty .Values.database.parameters | ternary "" (printf "?%s" .Values.database.parameters)) | quote }}
{{- with .Values.elasticsearch }}
{{- if .username }}
- name: TROVE_ES_PASSWORD
{{- if .passwordSecret.name }}
  valueFrom: { secretKeyRef: { name: {{ .passwordSecret.name }}, key: {{ .passwordSecret.key }} } }
{{- else }}
  valueFrom: { secretKeyRef: { name: {{ $secret }}, key: TROVE_ES_PASSWORD } }
{{- end }}
{{- $urls := list }}
{{- range $url := splitList "," .url }}
{{- $parts := splitList "://" (trim $url) }}
{{- $urls = append $urls (printf "%s://%s:$(TROVE_ES_PASSWORD)@%s" (first $parts) $.Values.elasticsearch.username (last $parts)) }}
{{- end }}
- name: TROVE_ES_URL
  value: {{ join "," $urls | quote }}
{{- else }}
- name: TROVE_ES_URL
  value: {{ .url | quote }}
{{- end }}
{{- if .caSecret.name }}
- name: NODE_EXTRA_CA_CERTS
  value: /etc/trove/elasticsearch-ca/{{ .caSecret.key }}
{{- end }}
{{- end }}
{{- end }}

{{/* Volumes shared by both apps. */}}
{{- define "trove.volumes" -}}
- name: tmp
  emptyDir: { sizeLimit: {{ .Values.tmp.sizeLimit }} }
- name: blobs
{{- if and .Values.blobs.persistence.enabled (not .Values.objectStorage.enabled) }}
  persistentVolumeClaim:
    claimName: {{ .Values.blobs.persistence.existingClaim | default (printf "%s-blobs" (include "trove.fullname" .)) }}
{{- else }}
  emptyDir: { sizeLimit: {{ .Values.blobs.emptyDir.sizeLimit }} }
{{- end }}
{{- if .Values.elasticsearch.caSecret.name }}
- name: elasticsearch-ca
  secret:
    secretName: {{ .Values.elasticsearch.caSecret.name }}
    items: [{ key: {{ .Values.elasticsearch.caSecret.key }}, path: {{ .Values.elasticsearch.caSecret.key }} }]
{{- end }}
{{- range .Values.folders }}
- name: folder-{{ .name }}
{{ toYaml .volume | indent 2 }}
{{- end }}
{{- end }}

{{- define "trove.volumeMounts" -}}
- { name: tmp, mountPath: /tmp }
- { name: blobs, mountPath: /data/blobs }
{{- if .Values.elasticsearch.caSecret.name }}
- { name: elasticsearch-ca, mountPath: /etc/trove/elasticsearch-ca, readOnly: true }
{{- end }}
{{- range .Values.folders }}
- { name: folder-{{ .name }}, mountPath: /data/folders/{{ .name }}, readOnly: true }
{{- end }}
{{- end }}

{{/* Pod-level settings shared by both apps. */}}
{{- define "trove.podSpec" -}}
serviceAccountName: {{ include "trove.serviceAccountName" . }}
automountServiceAccountToken: {{ .Values.serviceAccount.automountToken }}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
{{ toYaml . }}
{{- end }}
securityContext:
{{ toYaml .Values.podSecurityContext | indent 2 }}
{{- end }}

{{/*
The api's sign-in settings: each provider's TROVE_OIDC_<ID>_* variables, its client secret
referenced from the Secret named in its values (never written into a ConfigMap or a pod spec).
*/}}
{{- define "trove.signInEnv" -}}
{{- with .Values.signIn }}
{{- if .providers }}
- name: TROVE_OIDC_PROVIDERS
  value: {{ $ids := list }}{{ range .providers }}{{ $ids = append $ids .id }}{{ end }}{{ join "," $ids | quote }}
{{- range .providers }}
{{- $prefix := printf "TROVE_OIDC_%s_" (upper (replace "-" "_" .id)) }}
- name: {{ $prefix }}NAME
  value: {{ .name | default .id | quote }}
- name: {{ $prefix }}ISSUER
  value: {{ .issuer | quote }}
- name: {{ $prefix }}CLIENT_ID
  value: {{ .clientId | quote }}
{{- with .clientSecret }}
- name: {{ $prefix }}CLIENT_SECRET
  valueFrom: { secretKeyRef: { name: {{ .name }}, key: {{ .key }} } }
{{- end }}
{{- if .redirectUrl }}
- name: {{ $prefix }}REDIRECT_URL
  value: {{ .redirectUrl | quote }}
{{- end }}
{{- if .audience }}
- name: {{ $prefix }}AUDIENCE
  value: {{ .audience | quote }}
{{- end }}
{{- if .cliClientId }}
- name: {{ $prefix }}CLI_CLIENT_ID
  value: {{ .cliClientId | quote }}
{{- end }}
{{- if .scopes }}
- name: {{ $prefix }}SCOPES
  value: {{ .scopes | quote }}
{{- end }}
{{- if .groupsClaim }}
- name: {{ $prefix }}GROUPS_CLAIM
  value: {{ .groupsClaim | quote }}
{{- end }}
{{- end }}
{{- end }}
- name: TROVE_USER_PROVISIONING
  value: {{ .provisioning | default "jit" | quote }}
{{- if .defaultGroup }}
- name: TROVE_USER_DEFAULT_GROUP
  value: {{ .defaultGroup | quote }}
{{- end }}
{{- end }}
{{- end }}
