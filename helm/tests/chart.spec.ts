/**
 * The Helm chart, rendered with the real template engines (Go text/template + Sprig, see
 * helm/tools/render), for the default values, the deploy/ examples and other configurations: valid
 * Kubernetes objects, selectors that match, env names from the documented config catalog, yamllint
 * clean. Skipped (with a message) when `go` is not installed; CI installs:
 *   apt-get install -y golang-go golang-github-masterminds-sprig-dev yamllint
 */
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INGESTION_MAX_FILES_PER_UPLOAD, INGESTION_MAX_FILE_BYTES } from '@gaia/contracts';
import { APP_VARIABLE_GROUPS, describeVariables, loadAppConfig, type AppName } from '@gaia/shared/config';
import { checkObjects } from './chart-checks';
import {
  CHART_DIR,
  REPO_ROOT,
  goAvailable,
  render,
  renderYaml,
  sprigAvailable,
  yamllint,
  yamllintAvailable,
  type K8sObject,
  type RenderOptions,
} from './render';

const canRender = goAvailable() && sprigAvailable();
const describeChart = canRender ? describe : describe.skip;
if (!canRender) {
  console.warn('Helm chart tests skipped: install Go and Sprig (apt-get install -y golang-go golang-github-masterminds-sprig-dev yamllint).');
}
const hasYamllint = yamllintAvailable();

const catalog = describeVariables();
const catalogNames = new Set(catalog.map((v) => v.name));
const secretNames = new Set(catalog.filter((v) => v.secret).map((v) => v.name));
const SERVICE_APPS = ['gateway', 'agents', 'ingestion', 'retrieval', 'translation', 'billing'];

const MIB = 1024 * 1024;
/** The apps that parse multipart uploads in memory: those that read UPLOAD_MEMORY_BUDGET_MB (gateway, platform). */
const UPLOAD_BUDGET_GROUP = catalog.find((v) => v.name === 'UPLOAD_MEMORY_BUDGET_MB')!.group;
const UPLOAD_APPS = (Object.keys(APP_VARIABLE_GROUPS) as AppName[]).filter((a) => (APP_VARIABLE_GROUPS[a] as readonly string[]).includes(UPLOAD_BUDGET_GROUP));
/**
 * Form fields and part framing multer accepts besides the files: maxUploadRequestBytes in libs/gateway/feature
 * (50 fields × 1 MiB + 80 parts × 16 KiB ≈ 51.3 MiB), rounded up; the chart's project may not import the gateway feature lib.
 */
const MULTIPART_ALLOWANCE_BYTES = 52 * MIB;
/** The largest single upload request, held whole in memory (admitted even past the budget when nothing else is in flight). */
const LARGEST_UPLOAD_MIB = Math.ceil((INGESTION_MAX_FILES_PER_UPLOAD * INGESTION_MAX_FILE_BYTES + MULTIPART_ALLOWANCE_BYTES) / MIB);
/** Memory of the process itself besides the uploads and caches it holds (code, heap, sockets, buffers). */
const PROCESS_BASELINE_MIB = 256;
/**
 * The apps that keep loaded agents in memory: those that read TRANSLATION_AGENT_CACHE_MB (translation, platform). Their LRU
 * fills up to the budget as agents are requested, next to the feedback cache (TRANSLATION_FEEDBACK_CACHE_MB).
 */
const AGENT_CACHE_GROUP = catalog.find((v) => v.name === 'TRANSLATION_AGENT_CACHE_MB')!.group;
const AGENT_CACHE_APPS = (Object.keys(APP_VARIABLE_GROUPS) as AppName[]).filter((a) =>
  (APP_VARIABLE_GROUPS[a] as readonly string[]).includes(AGENT_CACHE_GROUP),
);

const QUANTITY_FACTORS: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: MIB, Gi: 1024 * MIB, Ti: 1024 * 1024 * MIB };

/** A Kubernetes memory quantity ("512Mi", "1Gi", "2G", "1073741824") in bytes. */
function memoryBytes(quantity: string | number): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(quantity));
  if (!m) throw new Error(`unsupported memory quantity ${quantity}`);
  return Number(m[1]) * QUANTITY_FACTORS[m[2] ?? ''];
}

function decode(secret: K8sObject): Record<string, string> {
  return Object.fromEntries(Object.entries((secret['data'] ?? {}) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
}

function objects(opts: RenderOptions): K8sObject[] {
  const result = render(opts);
  for (const m of result.manifests) if (m.error) throw new Error(`${m.template}: ${m.error}`);
  return result.manifests.flatMap((m) => m.documents);
}

const find = (objs: K8sObject[], kind: string, name?: string) => objs.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));

/** The rendered ConfigMap's data: what every app reads (the catalog schema's defaults apply to the keys left out). */
const renderedConfig = (objs: K8sObject[]) => (find(objs, 'ConfigMap')[0]?.['data'] ?? {}) as Record<string, string>;
const appOf = (d: K8sObject) => d.metadata.labels?.['app.kubernetes.io/component'] as AppName;
const memoryLimit = (d: K8sObject): string | undefined => d['spec'].template.spec.containers[0].resources?.limits?.memory;
const memoryLimitMiB = (d: K8sObject) => {
  const limit = memoryLimit(d);
  return limit === undefined ? 0 : memoryBytes(limit) / MIB;
};

/** One part of what a pod holds in memory: its MiB and how it was worked out (for the message). */
interface MemoryPart {
  mib: number;
  why: string;
}

/**
 * Upload bytes an upload-parsing app may hold at once: max(UPLOAD_MEMORY_BUDGET_MB, one largest upload), since an upload
 * larger than the budget is admitted only when nothing else is in flight.
 */
function uploadMemory(app: AppName, config: Record<string, string>): MemoryPart {
  const budgetMiB = loadAppConfig(app, config).UPLOAD_MEMORY_BUDGET_MB!;
  return { mib: Math.max(budgetMiB, LARGEST_UPLOAD_MIB), why: `max(UPLOAD_MEMORY_BUDGET_MB ${budgetMiB}, largest upload ${LARGEST_UPLOAD_MIB})` };
}

/** The agent and feedback caches of an app that keeps loaded agents: both fill up to their budgets as agents are used. */
function cacheMemory(app: AppName, config: Record<string, string>): MemoryPart[] {
  const { TRANSLATION_AGENT_CACHE_MB: agents, TRANSLATION_FEEDBACK_CACHE_MB: feedback } = loadAppConfig(app, config);
  return [
    { mib: agents!, why: `TRANSLATION_AGENT_CACHE_MB ${agents}` },
    { mib: feedback!, why: `TRANSLATION_FEEDBACK_CACHE_MB ${feedback}` },
  ];
}

/**
 * Deployments of the `apps` whose container memory limit is below the parts `holds` names (given the rendered config) plus
 * the process baseline: below it, a legal load can get the pod OOM-killed.
 */
function memoryShortfalls(objs: K8sObject[], apps: AppName[], holds: (app: AppName, config: Record<string, string>) => MemoryPart[]): string[] {
  const config = renderedConfig(objs);
  const problems: string[] = [];
  for (const d of find(objs, 'Deployment')) {
    const app = appOf(d);
    if (!apps.includes(app)) continue;
    const parts = holds(app, config);
    const needsMiB = parts.reduce((n, p) => n + p.mib, PROCESS_BASELINE_MIB);
    if (memoryLimitMiB(d) < needsMiB) {
      problems.push(
        `Deployment/${d.metadata.name}: memory limit ${memoryLimit(d) ?? 'unset'} is below ${needsMiB}Mi (${parts.map((p) => p.why).join(' + ')} + ${PROCESS_BASELINE_MIB} baseline)`,
      );
    }
  }
  return problems;
}

/** Upload-parsing apps: an UploadBudget holds at most max(UPLOAD_MEMORY_BUDGET_MB, one largest upload). */
const uploadMemoryShortfalls = (objs: K8sObject[]) => memoryShortfalls(objs, UPLOAD_APPS, (app, config) => [uploadMemory(app, config)]);

/** Apps that keep loaded agents: both caches, plus the upload memory when the same process also parses uploads (platform). */
const translationMemoryShortfalls = (objs: K8sObject[]) =>
  memoryShortfalls(objs, AGENT_CACHE_APPS, (app, config) => [...cacheMemory(app, config), ...(UPLOAD_APPS.includes(app) ? [uploadMemory(app, config)] : [])]);

/**
 * HorizontalPodAutoscalers that scale a pod keeping loaded agents on its memory use. Its agent and feedback caches fill
 * up to their budgets as agents are used and stay full (an LRU evicts only to admit another agent), so its memory
 * measures how many agents have been asked for, not load: such an HPA scales out to its maximum and never back.
 */
function memoryScaledAgentCaches(objs: K8sObject[]): string[] {
  const cachePods = new Set(
    find(objs, 'Deployment')
      .filter((d) => AGENT_CACHE_APPS.includes(appOf(d)))
      .map((d) => d.metadata.name),
  );
  return find(objs, 'HorizontalPodAutoscaler')
    .filter((h) => cachePods.has(h['spec'].scaleTargetRef.name))
    .filter((h) => (h['spec'].metrics as Array<{ resource?: { name: string } }>).some((m) => m.resource?.name === 'memory'))
    .map((h) => `HorizontalPodAutoscaler/${h.metadata.name}`);
}

interface Case {
  label: string;
  opts: RenderOptions;
  externalSecrets?: string[];
  externalClaims?: string[];
  components: string[];
}

const CASES: Case[] = [
  { label: 'default values', opts: {}, components: SERVICE_APPS },
  { label: 'deploy/values-small.yaml', opts: { valuesFiles: [join(REPO_ROOT, 'deploy/values-small.yaml')] }, components: SERVICE_APPS },
  {
    label: 'deploy/values-large.yaml',
    opts: { valuesFiles: [join(REPO_ROOT, 'deploy/values-large.yaml')] },
    externalSecrets: ['gaia-secrets'],
    components: SERVICE_APPS,
  },
  {
    label: 'platform mode with ingress',
    opts: {
      set: ['mode=platform', 'ingress.enabled=true', 'config.MESSAGING_TRANSPORT=nats', 'config.NATS_URL=nats://nats:4222', 'components.platform.replicas=2'],
    },
    components: ['platform'],
  },
  {
    label: 'bundled subcharts, external claim, some services disabled',
    opts: {
      name: 'prod-gaia',
      set: [
        'postgresql.enabled=true',
        'postgresql.auth.password=p@ss:word',
        'redis.enabled=true',
        'redis.auth.password=r3dis',
        'kafka.enabled=true',
        'nats.enabled=true',
        'opensearch.enabled=true',
        'config.RETRIEVAL_BACKEND=opensearch',
        'persistence.existingClaim=shared-files',
        'components.billing.enabled=false',
        'strict=true',
      ],
    },
    externalClaims: ['shared-files'],
    components: SERVICE_APPS.filter((s) => s !== 'billing'),
  },
];

describeChart('helm/gaia', () => {
  describe.each(CASES)('$label', (c) => {
    let objs: K8sObject[];
    beforeAll(() => {
      objs = objects(c.opts);
    });

    it('renders valid, consistent Kubernetes objects', () => {
      expect(objs.length).toBeGreaterThan(0);
      expect(checkObjects(objs, { externalSecrets: c.externalSecrets, externalClaims: c.externalClaims })).toEqual([]);
    });

    it('deploys each component with a Deployment, Service, and an HPA or PDB as configured', () => {
      const deployments = find(objs, 'Deployment');
      expect(deployments.map((d) => d.metadata.labels?.['app.kubernetes.io/component']).sort()).toEqual([...c.components].sort());
      expect(find(objs, 'Service')).toHaveLength(c.components.length);
      for (const d of deployments) {
        const hpa = find(objs, 'HorizontalPodAutoscaler', d.metadata.name)[0];
        const min = hpa ? hpa['spec'].minReplicas : d['spec'].replicas;
        expect(min).toBeGreaterThanOrEqual(1);
        // every component with two or more replicas has a disruption budget
        expect(find(objs, 'PodDisruptionBudget', d.metadata.name)).toHaveLength(min >= 2 ? 1 : 0);
      }
      // Prometheus scrapes every pod's /metrics on its own metrics port, never on the HTTP port the Ingress routes to.
      for (const d of deployments) {
        const ports = d['spec'].template.spec.containers[0].ports as Array<{ name: string; containerPort: number }>;
        const metrics = ports.find((p) => p.name === 'metrics')!.containerPort;
        expect(metrics).not.toBe(ports.find((p) => p.name === 'http')!.containerPort);
        expect(d['spec'].template.metadata.annotations).toMatchObject({
          'prometheus.io/scrape': 'true',
          'prometheus.io/port': String(metrics),
          'prometheus.io/path': '/metrics',
        });
      }
      const edge = c.components.includes('gateway') ? 'gateway' : 'platform';
      for (const i of find(objs, 'Ingress')) {
        for (const rule of i['spec'].rules) for (const path of rule.http.paths) expect(path.backend.service.name).toMatch(new RegExp(`-${edge}$`));
      }
    });

    it('maps the ConfigMap and Secret one-to-one to documented variables, secrets only in the Secret', () => {
      const [configMap] = find(objs, 'ConfigMap');
      const config = (configMap['data'] ?? {}) as Record<string, string>;
      const chartSecret = find(objs, 'Secret').find((s) => !s.metadata.annotations?.['helm.sh/hook']);
      const secret = chartSecret ? decode(chartSecret) : {};
      for (const name of Object.keys(config)) {
        expect({ name, documented: catalogNames.has(name), secret: secretNames.has(name) }).toEqual({ name, documented: true, secret: false });
      }
      for (const name of Object.keys(secret)) expect({ name, secret: secretNames.has(name) }).toEqual({ name, secret: true });
      for (const o of [...find(objs, 'Deployment'), ...find(objs, 'Job')]) {
        for (const container of o['spec'].template.spec.containers) {
          for (const e of container.env ?? []) expect({ name: e.name, documented: catalogNames.has(e.name) }).toEqual({ name: e.name, documented: true });
        }
      }
      // The hook Secret of the migration Job carries the same values (it runs before the ConfigMap exists).
      const hook = find(objs, 'Secret').find((s) => s.metadata.annotations?.['helm.sh/hook']);
      if (hook) expect(decode(hook)).toEqual({ ...config, ...secret, MIGRATIONS_RUN: 'true' });
    });

    it('gives every deployed app a configuration its own config schema accepts', () => {
      const config = (find(objs, 'ConfigMap')[0]['data'] ?? {}) as Record<string, string>;
      const chartSecret = find(objs, 'Secret').find((s) => !s.metadata.annotations?.['helm.sh/hook']);
      const env = { ...config, ...(chartSecret ? decode(chartSecret) : {}) };
      for (const app of c.components) expect(() => loadAppConfig(app as AppName, env)).not.toThrow();
    });

    it('gives every pod that parses uploads a memory limit covering the uploads it may hold at once plus its own baseline', () => {
      expect(objs.some((d) => d.kind === 'Deployment' && UPLOAD_APPS.includes(d.metadata.labels?.['app.kubernetes.io/component'] as AppName))).toBe(true);
      expect(uploadMemoryShortfalls(objs)).toEqual([]);
    });

    it('gives every pod that keeps loaded agents a memory limit covering its agent and feedback caches (and uploads, on the platform) plus its own baseline', () => {
      expect(objs.some((d) => d.kind === 'Deployment' && AGENT_CACHE_APPS.includes(appOf(d)))).toBe(true);
      expect(translationMemoryShortfalls(objs)).toEqual([]);
    });

    it('never scales a pod that keeps loaded agents on its memory: its caches stay full by design', () => {
      expect(memoryScaledAgentCaches(objs)).toEqual([]);
    });

    it('runs migrations in a pre-install/pre-upgrade Job with the platform image', () => {
      const [job] = find(objs, 'Job');
      expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
      const container = job['spec'].template.spec.containers[0];
      expect(container.command).toEqual(['node', 'dist/apps/platform/main.js', 'migrate']);
      expect(container.image).toMatch(/\/gaia-platform:[^:]+$/);
    });

    (hasYamllint ? it : it.skip)('is yamllint clean', () => {
      expect(yamllint(renderYaml(c.opts))).toBe('');
    });
  });

  describe('values', () => {
    const values = readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8');

    it('has one config/secrets key per documented variable (docs/configuration.md catalog)', () => {
      const objs = objects({ set: catalog.filter((v) => !v.secret).map((v) => `config.${v.name}=x`) });
      const config = find(objs, 'ConfigMap')[0]['data'] as Record<string, string>;
      // every non-secret variable has a config key (setting all of them yields exactly the catalog)
      expect(Object.keys(config).sort()).toEqual(
        catalog
          .filter((v) => !v.secret)
          .map((v) => v.name)
          .sort(),
      );
      const withSecrets = objects({ set: catalog.filter((v) => v.secret).map((v) => `secrets.${v.name}=x`) });
      const secret = decode(find(withSecrets, 'Secret').find((s) => !s.metadata.annotations?.['helm.sh/hook'])!);
      expect(Object.keys(secret).sort()).toEqual([...secretNames].sort());
      // and values.yaml lists them all, so that the README's table and the defaults stay complete
      for (const v of catalog) expect({ name: v.name, listed: new RegExp(`^  ${v.name}:`, 'm').test(values) }).toEqual({ name: v.name, listed: true });
    });

    it('matches the published configuration: docs/configuration.md and config-schema.json', () => {
      // Names and secret flags as published for operators (generated from the catalog by the lead's tool).
      const schemaFile = join(REPO_ROOT, 'libs/shared/config/src/config-schema.json');
      const published = JSON.parse(readFileSync(schemaFile, 'utf8')) as { variables: { name: string; secret: boolean }[] };
      const doc = readFileSync(join(REPO_ROOT, 'docs/configuration.md'), 'utf8');
      const documented = [...doc.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|[^|]*\|([^|]*)\|/gm)].map((m) => ({ name: m[1], secret: m[2].trim() !== '' }));
      expect(documented.length).toBeGreaterThan(10);
      const bySecret = (rows: { name: string; secret: boolean }[]) => rows.map((r) => `${r.name}:${r.secret ? 'secret' : 'config'}`).sort();
      const chartKeys = [
        ...[...values.matchAll(/^config:\n((?:  .*\n|\s*\n)*)/gm)].flatMap((m) => [...m[1].matchAll(/^  ([A-Z][A-Z0-9_]*):/gm)].map((k) => `${k[1]}:config`)),
        ...[...values.matchAll(/^secrets:\n((?:  .*\n|\s*\n)*)/gm)].flatMap((m) => [...m[1].matchAll(/^  ([A-Z][A-Z0-9_]*):/gm)].map((k) => `${k[1]}:secret`)),
      ].sort();
      expect(chartKeys).toEqual(bySecret(published.variables));
      expect(chartKeys).toEqual(bySecret(documented));
    });

    it('README has the generated configuration table, in sync with the catalog and values.yaml', () => {
      // Regenerate with: UPDATE_HELM_README=1 npx jest -c helm/jest.config.js -t 'configuration table'
      const file = join(CHART_DIR, 'README.md');
      const readme = readFileSync(file, 'utf8');
      const begin = '<!-- config-table:begin (generated from libs/shared/config; do not edit by hand) -->';
      const end = '<!-- config-table:end -->';
      const start = readme.indexOf(begin);
      const stop = readme.indexOf(end);
      expect(start).toBeGreaterThanOrEqual(0);
      expect(stop).toBeGreaterThan(start);
      const rows = catalog.map((v) => {
        const key = `${v.secret ? 'secrets' : 'config'}.${v.name}`;
        const chartDefault = (new RegExp(`^  ${v.name}: (.*)$`, 'm').exec(values)?.[1] ?? '').replace(/^"(.*)"$/, '$1');
        const shown = chartDefault ? `\`${chartDefault}\`` : v.default !== undefined ? `(app default \`${v.default}\`)` : '(unset)';
        return `| \`${v.name}\` | \`${key}\` | ${shown} | ${v.description.replace(/\|/g, '\\|')} |`;
      });
      const expected = [begin, '| variable | value | chart default | description |', '|---|---|---|---|', ...rows, end].join('\n');
      const current = readme.slice(start, stop + end.length);
      if (process.env['UPDATE_HELM_README'] === '1' && current !== expected) {
        writeFileSync(file, readme.replace(current, expected));
        return;
      }
      if (current !== expected) {
        throw new Error(
          `helm/gaia/README.md's configuration table is out of date with libs/shared/config. Regenerate it with:\n  UPDATE_HELM_README=1 npx jest -c helm/jest.config.js -t 'configuration table'\n\nexpected:\n${expected}`,
        );
      }
    });

    it('README documents every top-level value and every configuration key', () => {
      const readme = readFileSync(join(CHART_DIR, 'README.md'), 'utf8');
      const topLevel = [...values.matchAll(/^([a-zA-Z][a-zA-Z0-9]*):/gm)].map((m) => m[1]);
      expect(topLevel.length).toBeGreaterThan(10);
      for (const key of topLevel) expect({ key, documented: readme.includes(`\`${key}`) }).toEqual({ key, documented: true });
      for (const v of catalog) expect({ name: v.name, documented: readme.includes(v.name) }).toEqual({ name: v.name, documented: true });
    });
  });

  describe('guards', () => {
    it('strict mode refuses an install without a database', () => {
      expect(() => render({ set: ['strict=true'] })).toThrow(/strict: set secrets.DATABASE_URL/);
    });

    it('strict mode refuses the opensearch backend without an endpoint, and kafka without brokers', () => {
      const base = ['strict=true', 'secrets.DATABASE_URL=postgres://x', 'secrets.REDIS_URL=redis://r:6379', 'config.NATS_URL=nats://n:4222'];
      expect(() => render({ set: [...base, 'config.KAFKA_BROKERS=k:9092', 'config.RETRIEVAL_BACKEND=opensearch'] })).toThrow(/OPENSEARCH_URL/);
      expect(() => render({ set: [...base, 'config.MESSAGING_TRANSPORT=kafka'] })).toThrow(/KAFKA_BROKERS/);
      expect(() => render({ set: [...base, 'config.KAFKA_BROKERS=k:9092'] })).not.toThrow();
    });

    it('strict mode keeps the in-process transport to one platform pod', () => {
      const base = ['strict=true', 'mode=platform', 'secrets.DATABASE_URL=postgres://x', 'config.MESSAGING_TRANSPORT=inprocess'];
      expect(() => render({ set: base })).not.toThrow();
      expect(() => render({ set: [...base, 'components.platform.replicas=2'] })).toThrow(/does not span pods/);
      expect(() =>
        render({ set: ['strict=true', 'secrets.DATABASE_URL=postgres://x', 'secrets.REDIS_URL=redis://r', 'config.MESSAGING_TRANSPORT=inprocess'] }),
      ).toThrow(/only works with mode=platform/);
    });

    it('rejects an unknown mode and a bundled database without a password', () => {
      expect(() => render({ set: ['mode=cluster'] })).toThrow(/mode must be "services" or "platform"/);
      expect(() => render({ set: ['postgresql.enabled=true'] })).toThrow(/postgresql.auth.password is required/);
    });

    it('derives connection settings from enabled subcharts, URL-encoding passwords', () => {
      const objs = objects({ name: 'prod', set: ['postgresql.enabled=true', 'postgresql.auth.password=p@ss:word', 'kafka.enabled=true', 'nats.enabled=true'] });
      const secret = decode(find(objs, 'Secret', 'prod-gaia')[0]);
      expect(secret['DATABASE_URL']).toBe('postgres://gaia:p%40ss%3Aword@prod-postgresql:5432/gaia');
      const config = find(objs, 'ConfigMap')[0]['data'];
      expect(config).toMatchObject({ KAFKA_BROKERS: 'prod-kafka:9092', NATS_URL: 'nats://prod-nats:4222' });
    });

    it('uses an existing Secret instead of rendering one', () => {
      const objs = objects({ set: ['secrets.existingSecret=mine', 'secrets.DATABASE_URL=ignored'] });
      expect(find(objs, 'Secret').filter((s) => !s.metadata.annotations?.['helm.sh/hook'])).toEqual([]);
      const refs = find(objs, 'Deployment').flatMap((d) => d['spec'].template.spec.containers[0].envFrom.map((r: any) => r.secretRef?.name).filter(Boolean));
      expect(new Set(refs)).toEqual(new Set(['mine']));
      const job = find(objs, 'Job')[0]['spec'].template.spec.containers[0];
      expect(job.envFrom.map((r: any) => r.secretRef?.name)).toEqual(['mine', 'gaia-migrations']);
      expect(checkObjects(objs, { externalSecrets: ['mine'] })).toEqual([]);
      expect(checkObjects(objs)).toContainEqual(expect.stringMatching(/envFrom Secret mine is not rendered/));
    });

    it('flags an upload budget raised past the memory limit of the pods that parse uploads', () => {
      expect(uploadMemoryShortfalls(objects({ set: ['config.UPLOAD_MEMORY_BUDGET_MB=1024'] }))).toEqual([
        `Deployment/gaia-gateway: memory limit 1Gi is below ${1024 + PROCESS_BASELINE_MIB}Mi (max(UPLOAD_MEMORY_BUDGET_MB 1024, largest upload ${LARGEST_UPLOAD_MIB}) + ${PROCESS_BASELINE_MIB} baseline)`,
      ]);
      expect(uploadMemoryShortfalls(objects({ set: ['config.UPLOAD_MEMORY_BUDGET_MB=1024', 'components.gateway.resources.limits.memory=1280Mi'] }))).toEqual(
        [],
      );
    });

    it('flags agent and feedback caches raised past the memory limit of the pods that keep loaded agents', () => {
      const caches = ['config.TRANSLATION_AGENT_CACHE_MB=2048', 'config.TRANSLATION_FEEDBACK_CACHE_MB=128'];
      expect(translationMemoryShortfalls(objects({ set: caches }))).toEqual([
        `Deployment/gaia-translation: memory limit 1536Mi is below ${2048 + 128 + PROCESS_BASELINE_MIB}Mi (TRANSLATION_AGENT_CACHE_MB 2048 + TRANSLATION_FEEDBACK_CACHE_MB 128 + ${PROCESS_BASELINE_MIB} baseline)`,
      ]);
      expect(translationMemoryShortfalls(objects({ set: [...caches, 'components.translation.resources.limits.memory=2432Mi'] }))).toEqual([]);
      // One platform process holds the caches and the uploads together.
      expect(translationMemoryShortfalls(objects({ set: ['mode=platform', ...caches] }))).toEqual([
        `Deployment/gaia-platform: memory limit 2Gi is below ${2048 + 128 + LARGEST_UPLOAD_MIB + PROCESS_BASELINE_MIB}Mi (TRANSLATION_AGENT_CACHE_MB 2048 + TRANSLATION_FEEDBACK_CACHE_MB 128 + max(UPLOAD_MEMORY_BUDGET_MB 256, largest upload ${LARGEST_UPLOAD_MIB}) + ${PROCESS_BASELINE_MIB} baseline)`,
      ]);
      // Left out of the ConfigMap, the catalog defaults apply.
      const [agentsDefault, feedbackDefault] = ['TRANSLATION_AGENT_CACHE_MB', 'TRANSLATION_FEEDBACK_CACHE_MB'].map((n) =>
        Number(catalog.find((v) => v.name === n)!.default),
      );
      expect(
        translationMemoryShortfalls(
          objects({
            set: ['config.TRANSLATION_AGENT_CACHE_MB=', 'config.TRANSLATION_FEEDBACK_CACHE_MB=', 'components.translation.resources.limits.memory=512Mi'],
          }),
        ),
      ).toEqual([
        `Deployment/gaia-translation: memory limit 512Mi is below ${agentsDefault + feedbackDefault + PROCESS_BASELINE_MIB}Mi (TRANSLATION_AGENT_CACHE_MB ${agentsDefault} + TRANSLATION_FEEDBACK_CACHE_MB ${feedbackDefault} + ${PROCESS_BASELINE_MIB} baseline)`,
      ]);
    });

    it('scales on memory only the pods whose memory follows their load', () => {
      const memoryMetric = (objs: K8sObject[]) =>
        find(objs, 'HorizontalPodAutoscaler')
          .filter((h) => (h['spec'].metrics as Array<{ resource?: { name: string } }>).some((m) => m.resource?.name === 'memory'))
          .map((h) => h.metadata.name)
          .sort();
      const everyService = ['defaults.autoscaling.enabled=true', 'defaults.autoscaling.targetMemoryUtilizationPercentage=80'];
      expect(memoryMetric(objects({ set: everyService }))).toEqual(['gaia-agents', 'gaia-billing', 'gaia-gateway', 'gaia-ingestion', 'gaia-retrieval']);
      const platform = ['mode=platform', 'config.MESSAGING_TRANSPORT=nats', 'config.NATS_URL=nats://nats:4222', ...everyService];
      expect(find(objects({ set: platform }), 'HorizontalPodAutoscaler')).toHaveLength(1);
      expect(memoryMetric(objects({ set: platform }))).toEqual([]);
    });

    it('leaves replicas to the HPA and rolls pods when the configuration changes', () => {
      const a = objects({});
      const b = objects({ set: ['config.LOG_LEVEL=debug'] });
      const gw = (objs: K8sObject[]) => find(objs, 'Deployment', 'gaia-gateway')[0]['spec'];
      expect(gw(a).replicas).toBeUndefined();
      expect(gw(a).template.metadata.annotations['checksum/config']).not.toBe(gw(b).template.metadata.annotations['checksum/config']);
      expect(find(a, 'Deployment', 'gaia-billing')[0]['spec'].replicas).toBe(2);
    });
  });

  describe('checkObjects catches broken manifests', () => {
    it('reports a Service whose selector matches no pods, an HPA on a missing Deployment, an unknown kind', () => {
      const objs = objects({});
      expect(checkObjects(objs)).toEqual([]);
      const broken = JSON.parse(JSON.stringify(objs)) as K8sObject[];
      find(broken, 'Service', 'gaia-agents')[0]['spec'].selector['app.kubernetes.io/component'] = 'agent';
      find(broken, 'HorizontalPodAutoscaler', 'gaia-gateway')[0]['spec'].scaleTargetRef.name = 'gaia-gw';
      find(broken, 'Deployment', 'gaia-billing')[0]['spec'].template.spec.containers[0].securityContext.readOnlyRootFilesystem = false;
      broken.push({ apiVersion: 'policy/v1beta1', kind: 'PodDisruptionBudget', metadata: { name: 'old' }, spec: {} });
      const problems = checkObjects(broken);
      expect(problems).toEqual(
        expect.arrayContaining([
          'Service/gaia-agents: selector matches 0 Deployments (expected 1)',
          'HorizontalPodAutoscaler/gaia-gateway: scaleTargetRef Deployment/gaia-gw is not a rendered Deployment',
          'Deployment/gaia-billing: container billing: readOnlyRootFilesystem must be true',
          'PodDisruptionBudget/old: unknown apiVersion policy/v1beta1',
        ]),
      );
    });

    (hasYamllint ? it : it.skip)('yamllint flags badly indented output', () => {
      expect(yamllint('a:\n   b: 1\n  c: 2\n')).not.toBe('');
    });
  });

  describe('renderer (Helm semantics on a fixture chart)', () => {
    it('supports include, tpl, toYaml, required, Release/Chart objects and _helpers partials', () => {
      const dir = mkdtempSync(join(tmpdir(), 'gaia-chart-'));
      mkdirSync(join(dir, 'templates'));
      writeFileSync(join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: fx\nversion: 1.2.3\nappVersion: "9.9"\n');
      writeFileSync(join(dir, 'values.yaml'), 'greeting: hello {{ .Release.Name }}\nlist: [b, a]\nnested:\n  keep: 1\n  drop: 2\n');
      writeFileSync(join(dir, 'templates', '_helpers.tpl'), '{{- define "fx.name" -}}{{ .Chart.Name }}-{{ .Chart.AppVersion }}{{- end -}}\n');
      writeFileSync(
        join(dir, 'templates', 'cm.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ include "fx.name" . }}\n  namespace: {{ .Release.Namespace }}\ndata:\n  greeting: {{ tpl .Values.greeting . | quote }}\n  list: {{ toYaml .Values.list | quote }}\n  nested: {{ toYaml .Values.nested | quote }}\n  missing: "{{ .Values.nothing }}"\n  required: {{ required "need x" .Values.x | quote }}\n',
      );
      writeFileSync(join(dir, 'override.yaml'), 'nested:\n  drop: null\n  add: 3\n');
      const [cm] = objects({ chart: dir, name: 'rel', namespace: 'ns', valuesFiles: [join(dir, 'override.yaml')], set: ['x=42'] });
      expect(cm.metadata).toEqual({ name: 'fx-9.9', namespace: 'ns' });
      expect(cm['data']).toEqual({ greeting: 'hello rel', list: '- b\n- a', nested: 'add: 3\nkeep: 1', missing: '', required: '42' });
      expect(() => render({ chart: dir })).toThrow(/need x/);
    });
  });
});
