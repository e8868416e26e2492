{{/* Chart name, truncated to the 63 characters of a DNS label. */}}
{{- define "gaia.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Release full name: <release>-<chart> unless the release name already contains the chart name. */}}
{{- define "gaia.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "gaia.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels of every object. */}}
{{- define "gaia.labels" -}}
helm.sh/chart: {{ include "gaia.chart" . }}
app.kubernetes.io/name: {{ include "gaia.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: gaia
{{- end -}}

{{/* Selector labels of one component: dict "root" $ "name" <component>. */}}
{{- define "gaia.selectorLabels" -}}
app.kubernetes.io/name: {{ include "gaia.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* All labels of one component: dict "root" $ "name" <component>. */}}
{{- define "gaia.componentLabels" -}}
{{ include "gaia.labels" .root }}
app.kubernetes.io/component: {{ .name }}
{{- end -}}

{{/* Object name of one component: dict "root" $ "name" <component>. */}}
{{- define "gaia.componentName" -}}
{{- printf "%s-%s" (include "gaia.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Comma-separated names of the components deployed in the chosen mode. */}}
{{- define "gaia.componentNames" -}}
{{- if eq .Values.mode "platform" -}}
platform
{{- else if eq .Values.mode "services" -}}
{{- $names := list -}}
{{- range $name := list "gateway" "agents" "ingestion" "retrieval" "translation" "billing" -}}
{{- $c := index $.Values.components $name | default dict -}}
{{- if ne (toString (index $c "enabled")) "false" -}}
{{- $names = append $names $name -}}
{{- end -}}
{{- end -}}
{{- join "," $names -}}
{{- else -}}
{{- fail (printf "mode must be \"services\" or \"platform\" (got %q)" (toString .Values.mode)) -}}
{{- end -}}
{{- end -}}

{{/* Name of the component that serves HTTP (API, Socket.IO and the web app). */}}
{{- define "gaia.edgeComponent" -}}
{{- if eq .Values.mode "platform" -}}platform{{- else -}}gateway{{- end -}}
{{- end -}}

{{/* Effective settings of one component (defaults deep-merged with components.<name>), as YAML. */}}
{{- define "gaia.component" -}}
{{- $own := index .root.Values.components .name | default dict -}}
{{- toYaml (mergeOverwrite (deepCopy .root.Values.defaults) (deepCopy $own)) -}}
{{- end -}}

{{- define "gaia.image" -}}
{{- $tag := default .root.Chart.AppVersion .root.Values.image.tag -}}
{{- printf "%s/%s%s:%s" (trimSuffix "/" .root.Values.image.registry) .root.Values.image.repositoryPrefix .name $tag -}}
{{- end -}}

{{- define "gaia.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "gaia.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "gaia.secretName" -}}
{{- default (include "gaia.fullname" .) .Values.secrets.existingSecret -}}
{{- end -}}

{{- define "gaia.claimName" -}}
{{- default (printf "%s-files" (include "gaia.fullname" .)) .Values.persistence.existingClaim -}}
{{- end -}}

{{/*
Non-secret configuration (ConfigMap data) as YAML: the `config` values, minus empty ones, plus what the
enabled subcharts imply.
*/}}
{{- define "gaia.configData" -}}
{{- $data := dict -}}
{{- range $k, $v := .Values.config -}}
{{- if ne (toString $v) "" -}}
{{- $_ := set $data $k (toString $v) -}}
{{- end -}}
{{- end -}}
{{- if .Values.kafka.enabled -}}
{{- $_ := set $data "KAFKA_BROKERS" (printf "%s-kafka:9092" .Release.Name) -}}
{{- end -}}
{{- if .Values.nats.enabled -}}
{{- $_ := set $data "NATS_URL" (printf "nats://%s-nats:4222" .Release.Name) -}}
{{- end -}}
{{- if .Values.opensearch.enabled -}}
{{- $_ := set $data "OPENSEARCH_URL" (printf "https://%s:9200" .Values.opensearch.serviceName) -}}
{{- end -}}
{{- toYaml $data -}}
{{- end -}}

{{/* Secret data as YAML (plain values; the Secret template encodes them). */}}
{{- define "gaia.secretData" -}}
{{- $data := dict -}}
{{- range $k, $v := .Values.secrets -}}
{{- if and (ne $k "existingSecret") (ne (toString $v) "") -}}
{{- $_ := set $data $k (toString $v) -}}
{{- end -}}
{{- end -}}
{{- if .Values.postgresql.enabled -}}
{{- $pg := .Values.postgresql.auth -}}
{{- $password := required "postgresql.auth.password is required when postgresql.enabled" $pg.password -}}
{{- $_ := set $data "DATABASE_URL" (printf "postgres://%s:%s@%s-postgresql:5432/%s" $pg.username (urlquery $password) .Release.Name $pg.database) -}}
{{- end -}}
{{- if .Values.redis.enabled -}}
{{- $password := required "redis.auth.password is required when redis.enabled" .Values.redis.auth.password -}}
{{- $_ := set $data "REDIS_URL" (printf "redis://:%s@%s-redis-master:6379" (urlquery $password) .Release.Name) -}}
{{- end -}}
{{- toYaml $data -}}
{{- end -}}

{{/* With `strict: true`, stop the install when the chosen backends lack their settings. */}}
{{- define "gaia.validate" -}}
{{- $config := include "gaia.configData" . | fromYaml -}}
{{- $secrets := include "gaia.secretData" . | fromYaml -}}
{{- $external := ne .Values.secrets.existingSecret "" -}}
{{- if .Values.strict -}}
{{- if and (not $external) (not (hasKey $secrets "DATABASE_URL")) -}}
{{- fail "strict: set secrets.DATABASE_URL (or secrets.existingSecret, or postgresql.enabled)" -}}
{{- end -}}
{{- if and (ne (index $config "MESSAGING_TRANSPORT") "inprocess") (not (hasKey $config "NATS_URL")) -}}
{{- fail "strict: set config.NATS_URL (or nats.enabled): services call each other over NATS" -}}
{{- end -}}
{{- if and (eq (index $config "MESSAGING_TRANSPORT") "kafka") (not (hasKey $config "KAFKA_BROKERS")) -}}
{{- fail "strict: MESSAGING_TRANSPORT=kafka needs config.KAFKA_BROKERS (or kafka.enabled)" -}}
{{- end -}}
{{- if and (eq (index $config "RETRIEVAL_BACKEND") "opensearch") (not (hasKey $config "OPENSEARCH_URL")) -}}
{{- fail "strict: RETRIEVAL_BACKEND=opensearch needs config.OPENSEARCH_URL (or opensearch.enabled)" -}}
{{- end -}}
{{- if and (eq .Values.mode "services") (not $external) (not (hasKey $secrets "REDIS_URL")) -}}
{{- fail "strict: several gateway replicas need secrets.REDIS_URL (or redis.enabled) for Socket.IO and shared counters" -}}
{{- end -}}
{{- if eq (index $config "MESSAGING_TRANSPORT") "inprocess" -}}
{{- if eq .Values.mode "services" -}}
{{- fail "strict: MESSAGING_TRANSPORT=inprocess only works with mode=platform" -}}
{{- end -}}
{{- $platform := include "gaia.component" (dict "root" . "name" "platform") | fromYaml -}}
{{- if or $platform.autoscaling.enabled (gt (int $platform.replicas) 1) -}}
{{- fail "strict: MESSAGING_TRANSPORT=inprocess does not span pods: run one platform replica, or use nats" -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* envFrom of every workload. */}}
{{- define "gaia.envFrom" -}}
- configMapRef:
    name: {{ include "gaia.fullname" . }}
- secretRef:
    name: {{ include "gaia.secretName" . }}
{{- end -}}

{{/* Volumes shared by workloads: a writable /tmp and the files volume. */}}
{{- define "gaia.volumes" -}}
- name: tmp
  emptyDir: {}
- name: data
{{- if .Values.persistence.enabled }}
  persistentVolumeClaim:
    claimName: {{ include "gaia.claimName" . }}
{{- else }}
  emptyDir: {}
{{- end }}
{{- end -}}

{{- define "gaia.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
- name: data
  mountPath: {{ .Values.persistence.mountPath }}
{{- end -}}
