/**
 * Structural checks of rendered Kubernetes objects. Each check returns human-readable problems (empty =
 * fine) so that a test can also prove a check fails on a broken manifest.
 */
import type { K8sObject } from './render';

/** The kinds this chart may render, by apiVersion (all GA in Kubernetes >= 1.25). */
export const KNOWN_KINDS: Record<string, string[]> = {
  v1: ['ConfigMap', 'Secret', 'Service', 'ServiceAccount', 'PersistentVolumeClaim'],
  'apps/v1': ['Deployment'],
  'batch/v1': ['Job'],
  'autoscaling/v2': ['HorizontalPodAutoscaler'],
  'policy/v1': ['PodDisruptionBudget'],
  'networking.k8s.io/v1': ['Ingress'],
};

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

export interface CheckContext {
  /** Names of Secrets / PVCs that exist outside the chart (existingSecret, existingClaim). */
  externalSecrets?: string[];
  externalClaims?: string[];
}

const id = (o: K8sObject) => `${o.kind}/${o.metadata?.name}`;

function podSpecOf(o: K8sObject): any | undefined {
  if (o.kind === 'Deployment' || o.kind === 'Job') return o.spec?.template?.spec;
  return undefined;
}

function matches(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

function isHook(o: K8sObject): boolean {
  return !!o.metadata?.annotations?.['helm.sh/hook'];
}

export function checkObjects(objects: K8sObject[], ctx: CheckContext = {}): string[] {
  const problems: string[] = [];
  const p = (o: K8sObject, msg: string) => problems.push(`${id(o)}: ${msg}`);
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const seen = new Set<string>();

  for (const o of objects) {
    if (!o || typeof o !== 'object') {
      problems.push('a document is not an object');
      continue;
    }
    const kinds = KNOWN_KINDS[o.apiVersion];
    if (!kinds) p(o, `unknown apiVersion ${o.apiVersion}`);
    else if (!kinds.includes(o.kind)) p(o, `kind ${o.kind} does not exist in ${o.apiVersion}`);
    const name = o.metadata?.name;
    if (typeof name !== 'string' || !name) {
      p(o, 'metadata.name is missing');
      continue;
    }
    const nameRule = o.kind === 'Service' ? DNS_LABEL : DNS_SUBDOMAIN;
    const maxLength = o.kind === 'Service' ? 63 : 253;
    if (!nameRule.test(name) || name.length > maxLength) p(o, `metadata.name "${name}" is not a valid ${o.kind === 'Service' ? 'DNS label' : 'DNS subdomain'}`);
    if (seen.has(id(o))) p(o, 'rendered twice');
    seen.add(id(o));
    for (const [k, v] of Object.entries(o.metadata.labels ?? {})) {
      if (!LABEL_KEY.test(k) || k.split('/').pop()!.length > 63) p(o, `label key "${k}" is invalid`);
      if (typeof v !== 'string' || !LABEL_VALUE.test(v) || v.length > 63) p(o, `label ${k}="${v}" is not a valid label value`);
    }
    for (const [k, v] of Object.entries(o.metadata.annotations ?? {})) {
      if (typeof v !== 'string') p(o, `annotation ${k} must be a string`);
    }
  }

  const configMaps = new Set(byKind('ConfigMap').map((o) => o.metadata.name));
  const secrets = new Set([
    ...byKind('Secret')
      .filter((o) => !isHook(o))
      .map((o) => o.metadata.name),
    ...(ctx.externalSecrets ?? []),
  ]);
  const hookSecrets = new Set(
    byKind('Secret')
      .filter(isHook)
      .map((o) => o.metadata.name),
  );
  const claims = new Set([...byKind('PersistentVolumeClaim').map((o) => o.metadata.name), ...(ctx.externalClaims ?? [])]);
  const serviceAccounts = new Set(byKind('ServiceAccount').map((o) => o.metadata.name));
  const deployments = byKind('Deployment');
  const services = byKind('Service');

  for (const o of byKind('ConfigMap')) {
    for (const [k, v] of Object.entries(o.data ?? {})) {
      if (!ENV_NAME.test(k)) p(o, `data key ${k} is not a valid key`);
      if (typeof v !== 'string') p(o, `data.${k} must be a string (got ${typeof v})`);
    }
  }
  for (const o of byKind('Secret')) {
    if (o.type !== 'Opaque') p(o, `type ${o.type} (expected Opaque)`);
    for (const [k, v] of Object.entries(o.data ?? {})) {
      if (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v)) p(o, `data.${k} is not base64`);
    }
  }

  // Pods (Deployments and the migration Job).
  for (const o of [...deployments, ...byKind('Job')]) {
    const spec = podSpecOf(o);
    if (!spec) {
      p(o, 'spec.template.spec is missing');
      continue;
    }
    const hook = isHook(o);
    if (o.kind === 'Deployment') {
      const selector = o.spec?.selector?.matchLabels;
      if (!selector || Object.keys(selector).length === 0) p(o, 'spec.selector.matchLabels is missing');
      else if (!matches(selector, o.spec?.template?.metadata?.labels)) p(o, 'spec.selector does not match the pod template labels');
      if (o.spec.replicas !== undefined && (!Number.isInteger(o.spec.replicas) || o.spec.replicas < 0)) p(o, `replicas ${o.spec.replicas} is not a count`);
    } else {
      if (!['Never', 'OnFailure'].includes(spec.restartPolicy)) p(o, `Job pods need restartPolicy Never or OnFailure (got ${spec.restartPolicy})`);
    }
    if (spec.serviceAccountName && !serviceAccounts.has(spec.serviceAccountName) && spec.serviceAccountName !== 'default')
      p(o, `service account ${spec.serviceAccountName} is not rendered`);
    if (spec.securityContext?.runAsNonRoot !== true) p(o, 'pod securityContext.runAsNonRoot must be true');
    const volumes = new Map<string, any>((spec.volumes ?? []).map((v: any) => [v.name, v]));
    for (const v of volumes.values()) {
      const claim = v.persistentVolumeClaim?.claimName;
      if (claim && !claims.has(claim)) p(o, `volume ${v.name} uses PVC ${claim}, which is not rendered`);
    }
    for (const t of spec.topologySpreadConstraints ?? []) {
      if (!matches(t.labelSelector?.matchLabels, o.spec?.template?.metadata?.labels))
        p(o, `topologySpreadConstraint on ${t.topologyKey} does not select the pod's own labels`);
      if (!Number.isInteger(t.maxSkew) || t.maxSkew < 1 || !t.topologyKey || !['DoNotSchedule', 'ScheduleAnyway'].includes(t.whenUnsatisfiable))
        p(o, `topologySpreadConstraint ${JSON.stringify(t)} is invalid`);
    }
    const containers: any[] = spec.containers ?? [];
    if (containers.length === 0) p(o, 'no containers');
    for (const c of containers) {
      if (!c.name || !DNS_LABEL.test(c.name)) p(o, `container name "${c.name}" is invalid`);
      if (typeof c.image !== 'string' || !/^[^\s:]+(:[^\s:]+)?$/.test(c.image.replace(/:\d+\//, '/')) || /:latest$/.test(c.image) || !c.image.includes(':'))
        p(o, `container ${c.name}: image "${c.image}" must be a pinned name:tag`);
      const portNames = new Set<string>();
      for (const port of c.ports ?? []) {
        if (!Number.isInteger(port.containerPort) || port.containerPort < 1 || port.containerPort > 65535)
          p(o, `container ${c.name}: containerPort ${port.containerPort} is invalid`);
        if (port.name) portNames.add(port.name);
      }
      for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
        const hp = c[probe]?.httpGet;
        if (o.kind === 'Deployment' && !hp) p(o, `container ${c.name}: ${probe} is missing`);
        if (hp && typeof hp.port === 'string' && !portNames.has(hp.port)) p(o, `container ${c.name}: ${probe} uses unknown port ${hp.port}`);
      }
      if (o.kind === 'Deployment') {
        if (c.readinessProbe?.httpGet?.path !== '/readyz') p(o, `container ${c.name}: readinessProbe must GET /readyz`);
        if (c.livenessProbe?.httpGet?.path !== '/healthz') p(o, `container ${c.name}: livenessProbe must GET /healthz`);
      }
      for (const ref of c.envFrom ?? []) {
        if (ref.configMapRef && !configMaps.has(ref.configMapRef.name)) p(o, `container ${c.name}: envFrom ConfigMap ${ref.configMapRef.name} is not rendered`);
        if (ref.secretRef) {
          const ok = secrets.has(ref.secretRef.name) || (hook && hookSecrets.has(ref.secretRef.name));
          if (!ok)
            p(
              o,
              `container ${c.name}: envFrom Secret ${ref.secretRef.name} is not rendered${hook ? '' : ' (hook Secrets do not exist for regular workloads)'}`,
            );
        }
      }
      for (const e of c.env ?? []) if (!ENV_NAME.test(e.name ?? '')) p(o, `container ${c.name}: env name "${e.name}" is invalid`);
      for (const m of c.volumeMounts ?? []) if (!volumes.has(m.name)) p(o, `container ${c.name}: volumeMount ${m.name} has no volume`);
      const sc = c.securityContext ?? {};
      if (sc.allowPrivilegeEscalation !== false) p(o, `container ${c.name}: allowPrivilegeEscalation must be false`);
      if (sc.readOnlyRootFilesystem !== true) p(o, `container ${c.name}: readOnlyRootFilesystem must be true`);
      if (!(sc.capabilities?.drop ?? []).includes('ALL')) p(o, `container ${c.name}: capabilities must drop ALL`);
      if (!c.resources?.requests?.cpu || !c.resources?.requests?.memory || !c.resources?.limits?.memory)
        p(o, `container ${c.name}: cpu/memory requests and a memory limit are required`);
    }
  }

  for (const s of services) {
    const selector = s.spec?.selector;
    const targets = deployments.filter((d) => matches(selector, d.spec?.template?.metadata?.labels));
    if (targets.length !== 1) p(s, `selector matches ${targets.length} Deployments (expected 1)`);
    if (!['ClusterIP', 'NodePort', 'LoadBalancer'].includes(s.spec?.type)) p(s, `type ${s.spec?.type} is invalid`);
    for (const port of s.spec?.ports ?? []) {
      if (!Number.isInteger(port.port) || port.port < 1 || port.port > 65535) p(s, `port ${port.port} is invalid`);
      if (typeof port.targetPort === 'string' && targets[0]) {
        const names = (targets[0].spec.template.spec.containers ?? []).flatMap((c: any) => (c.ports ?? []).map((x: any) => x.name));
        if (!names.includes(port.targetPort)) p(s, `targetPort ${port.targetPort} is not a container port of ${id(targets[0])}`);
      }
    }
    if ((s.spec?.ports ?? []).length === 0) p(s, 'no ports');
  }

  for (const h of byKind('HorizontalPodAutoscaler')) {
    const ref = h.spec?.scaleTargetRef;
    const target = deployments.find((d) => ref?.kind === 'Deployment' && ref?.apiVersion === 'apps/v1' && d.metadata.name === ref?.name);
    if (!target) p(h, `scaleTargetRef ${ref?.kind}/${ref?.name} is not a rendered Deployment`);
    else if (target.spec.replicas !== undefined) p(h, `${id(target)} sets spec.replicas, which fights the autoscaler`);
    const min = h.spec?.minReplicas ?? 1;
    if (!Number.isInteger(h.spec?.maxReplicas) || h.spec.maxReplicas < min) p(h, `maxReplicas ${h.spec?.maxReplicas} < minReplicas ${min}`);
    if (!Array.isArray(h.spec?.metrics) || h.spec.metrics.length === 0) p(h, 'no metrics');
    for (const m of h.spec?.metrics ?? []) {
      if (
        m.type !== 'Resource' ||
        !['cpu', 'memory'].includes(m.resource?.name) ||
        m.resource?.target?.type !== 'Utilization' ||
        !Number.isInteger(m.resource?.target?.averageUtilization)
      ) {
        p(h, `metric ${JSON.stringify(m)} is not a Resource utilization metric`);
      }
    }
  }

  for (const b of byKind('PodDisruptionBudget')) {
    const targets = deployments.filter((d) => matches(b.spec?.selector?.matchLabels, d.spec?.template?.metadata?.labels));
    if (targets.length !== 1) p(b, `selector matches ${targets.length} Deployments (expected 1)`);
    const has = ['minAvailable', 'maxUnavailable'].filter((k) => b.spec?.[k] !== undefined);
    if (has.length !== 1) p(b, 'exactly one of minAvailable / maxUnavailable is required');
    if (targets[0] && b.spec?.minAvailable !== undefined) {
      const hpa = byKind('HorizontalPodAutoscaler').find((h) => h.spec?.scaleTargetRef?.name === targets[0].metadata.name);
      const minReplicas = hpa ? (hpa.spec.minReplicas ?? 1) : (targets[0].spec.replicas ?? 1);
      if (Number.isInteger(b.spec.minAvailable) && b.spec.minAvailable >= minReplicas)
        p(b, `minAvailable ${b.spec.minAvailable} >= replicas ${minReplicas}: no pod could ever be evicted`);
    }
  }

  for (const i of byKind('Ingress')) {
    const rules = i.spec?.rules ?? [];
    if (rules.length === 0) p(i, 'no rules');
    for (const r of rules) {
      for (const path of r.http?.paths ?? []) {
        if (!['Prefix', 'Exact', 'ImplementationSpecific'].includes(path.pathType)) p(i, `pathType ${path.pathType} is invalid`);
        if (typeof path.path !== 'string' || !path.path.startsWith('/')) p(i, `path ${path.path} must start with /`);
        const svc = services.find((s) => s.metadata.name === path.backend?.service?.name);
        if (!svc) p(i, `backend service ${path.backend?.service?.name} is not rendered`);
        else {
          const port = path.backend.service.port ?? {};
          const ok = (svc.spec.ports ?? []).some((x: any) => (port.name !== undefined ? x.name === port.name : x.port === port.number));
          if (!ok) p(i, `backend port ${JSON.stringify(port)} is not a port of ${id(svc)}`);
        }
      }
    }
    for (const t of i.spec?.tls ?? []) if (!t.secretName) p(i, 'tls entry without secretName');
  }

  for (const o of objects.filter(isHook)) {
    const hooks = o.metadata.annotations!['helm.sh/hook'].split(',');
    const valid = ['pre-install', 'post-install', 'pre-upgrade', 'post-upgrade', 'pre-delete', 'post-delete', 'pre-rollback', 'post-rollback', 'test'];
    for (const h of hooks) if (!valid.includes(h)) p(o, `unknown hook ${h}`);
    if (!/^-?\d+$/.test(o.metadata.annotations!['helm.sh/hook-weight'] ?? '0')) p(o, 'hook-weight must be an integer string');
  }

  return problems;
}
