/**
 * Runs Gaia the way Kubernetes does, on this machine: every service as its own process (N replicas each)
 * from the built entry points `dist/apps/<service>/main.js`, over the local Postgres, NATS and Redis,
 * after one migration run (`node dist/apps/platform/main.js migrate`, like the chart's Job), with the
 * services started with MIGRATIONS_RUN=false, PORT=0 and a shared files folder and SESSION_SECRET (as
 * the chart's ConfigMap/Secret give every replica). Build first: `node tools/build.mjs --backend`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');
export const SERVICES = ['gateway', 'agents', 'ingestion', 'retrieval', 'translation', 'billing'] as const;
export type ServiceName = (typeof SERVICES)[number];

export interface ClusterOptions {
  databaseUrl: string;
  /** Replicas per service (a number for all, or per service; 0 leaves a service out). Default 2. */
  replicas?: number | Partial<Record<ServiceName, number>>;
  transport?: 'nats' | 'kafka';
  natsUrl?: string;
  redisUrl?: string;
  /** Extra environment for every process (documented variables only). */
  env?: Record<string, string>;
  /** Folder for per-process DATA_DIR and the shared FILE_STORAGE_DIR. Default tmp/multiprocess/<run>. */
  dataDir?: string;
  /** How long to wait for all replicas to be ready. Default 120 s. */
  readyTimeoutMs?: number;
}

export interface ServiceProcess {
  service: ServiceName;
  replica: number;
  /** e.g. `gateway-1` */
  name: string;
  child: ChildProcess;
  /** Base URL once ready (http://127.0.0.1:<port>). */
  url: string;
  /** Last part of the process output (for failure messages). */
  output(): string;
}

export interface ServiceCluster {
  processes: ServiceProcess[];
  /** Base URLs of the gateway replicas. */
  gateways(): string[];
  urlsOf(service: ServiceName): string[];
  /** Stops one replica (SIGTERM by default; SIGKILL for a crash) and waits for it to exit. */
  kill(name: string, signal?: NodeJS.Signals): Promise<number | null>;
  /** Starts a stopped replica again (same name, new port). */
  restart(name: string): Promise<ServiceProcess>;
  /** SIGTERM to every process; resolves with the exit codes once all exited. */
  stop(): Promise<Record<string, number | null>>;
}

const OUTPUT_LIMIT = 200_000;

function entry(app: string): string {
  const file = join(ROOT, 'dist', 'apps', app, 'main.js');
  if (!existsSync(file)) throw new Error(`${file} is missing: build first (node tools/build.mjs --backend)`);
  return file;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/**
 * The Kafka broker double (libs/shared/messaging/src/kafka/testing) as its own process, with every event
 * topic and dead-letter topic created: lets the cluster run with MESSAGING_TRANSPORT=kafka here.
 */
export interface KafkaDoubleProcess {
  brokers: string;
  child: ChildProcess;
  /** Latest settled state of each consumer group: generation and member count. */
  groups(): Record<string, { generation: number; members: number }>;
  stop(): Promise<number | null>;
}

export async function startKafkaDouble(): Promise<KafkaDoubleProcess> {
  const file = join(ROOT, 'dist', 'out', 'libs', 'shared', 'messaging', 'src', 'kafka', 'testing', 'kafka-double.main.js');
  if (!existsSync(file)) throw new Error(`${file} is missing: build first (node tools/build.mjs --backend)`);
  const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (d) => (output += d));
  const brokers = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      const m = /KAFKA_DOUBLE_READY (\S+)/.exec(output);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`kafka double exited (${code}): ${output.slice(-2000)}`)));
  });
  const groups: Record<string, { generation: number; members: number }> = {};
  let lines = '';
  child.stdout!.on('data', (d: Buffer) => {
    lines += d.toString();
    let nl: number;
    while ((nl = lines.indexOf('\n')) >= 0) {
      const line = lines.slice(0, nl);
      lines = lines.slice(nl + 1);
      const m = /^KAFKA_DOUBLE_GROUP (.+)$/.exec(line);
      if (m) {
        const g = JSON.parse(m[1]) as { id: string; generation: number; members: number };
        groups[g.id] = { generation: g.generation, members: g.members };
      }
    }
  });
  return {
    brokers,
    child,
    groups: () => ({ ...groups }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited(child);
      if (code !== 0) throw new Error(`kafka double reported problems (exit ${code}):\n${output.slice(-4000)}`);
      return code;
    },
  };
}

export interface OpenSearchDoubleProcess {
  url: string;
  child: ChildProcess;
  /** Stops the double; resolves with what it served (requests by shape, documents per index). */
  stop(): Promise<{ requests: Record<string, number>; indices: Record<string, number> }>;
}

/** The OpenSearch wire double (libs/retrieval/data-access/src/opensearch/testing) as its own process. */
export async function startOpenSearchDouble(): Promise<OpenSearchDoubleProcess> {
  const file = join(ROOT, 'dist', 'out', 'libs', 'retrieval', 'data-access', 'src', 'opensearch', 'testing', 'opensearch-double.main.js');
  if (!existsSync(file)) throw new Error(`${file} is missing: build first (node tools/build.mjs --backend)`);
  const child = spawn(process.execPath, [file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (d) => (output += d));
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const m = /OPENSEARCH_DOUBLE_READY (\S+)/.exec(output);
      if (m) {
        child.stdout!.off('data', onData);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`opensearch double exited (${code}): ${output.slice(-2000)}`)));
  });
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited(child);
      const m = /OPENSEARCH_DOUBLE_STATS (.+)/.exec(output);
      if (!m) throw new Error(`opensearch double printed no stats:\n${output.slice(-2000)}`);
      return JSON.parse(m[1]) as { requests: Record<string, number>; indices: Record<string, number> };
    },
  };
}

/** Applies every migration once, as the chart's migration Job does. */
export async function migrate(databaseUrl: string, env: Record<string, string> = {}): Promise<void> {
  const child = spawn(process.execPath, [entry('platform'), 'migrate'], {
    cwd: ROOT,
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const code = await exited(child);
  if (code !== 0) throw new Error(`migrate exited with ${code}:\n${out.slice(-4000)}`);
}

export async function startServiceCluster(opts: ClusterOptions): Promise<ServiceCluster> {
  const run = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const dataDir = opts.dataDir ?? join(ROOT, 'tmp', 'multiprocess', run);
  const filesDir = join(dataDir, 'files');
  mkdirSync(filesDir, { recursive: true });
  const sessionSecret = randomBytes(32).toString('hex');
  const baseEnv: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    DATABASE_URL: opts.databaseUrl,
    MIGRATIONS_RUN: 'false',
    // 12+ processes share the machine's Postgres (max_connections 100): small pools.
    DATABASE_POOL_SIZE: '4',
    MESSAGING_TRANSPORT: opts.transport ?? 'nats',
    MESSAGING_NAMESPACE: `cluster-${run}`,
    NATS_URL: opts.natsUrl ?? process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222',
    REDIS_URL: opts.redisUrl ?? process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379',
    FILE_STORAGE_DIR: filesDir,
    SESSION_SECRET: sessionSecret,
    SHUTDOWN_GRACE_MS: '10000',
    ...(opts.env ?? {}),
  };
  const replicasOf = (s: ServiceName) => (typeof opts.replicas === 'number' ? opts.replicas : (opts.replicas?.[s] ?? 2));
  const readyTimeoutMs = opts.readyTimeoutMs ?? 120_000;

  const launch = (service: ServiceName, replica: number): Promise<ServiceProcess> => {
    const name = `${service}-${replica}`;
    const procDataDir = join(dataDir, name);
    mkdirSync(procDataDir, { recursive: true });
    const child = spawn(process.execPath, [entry(service)], {
      cwd: ROOT,
      env: { ...process.env, ...baseEnv, DATA_DIR: procDataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const append = (d: Buffer) => {
      output = (output + d.toString()).slice(-OUTPUT_LIMIT);
    };
    child.stderr!.on('data', append);
    const proc: ServiceProcess = { service, replica, name, child, url: '', output: () => output };
    return new Promise<ServiceProcess>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${name} not ready after ${readyTimeoutMs} ms:\n${output.slice(-4000)}`));
      }, readyTimeoutMs);
      let seen = '';
      child.stdout!.on('data', (d: Buffer) => {
        append(d);
        if (proc.url) return;
        seen = (seen + d.toString()).slice(-10_000);
        const m = /ready at (http:\/\/[^\s"\\]+)/.exec(seen);
        if (m) {
          proc.url = m[1].replace('localhost', '127.0.0.1');
          clearTimeout(timer);
          resolve(proc);
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (!proc.url) reject(new Error(`${name} exited before ready (code ${code}, signal ${signal}):\n${output.slice(-4000)}`));
      });
    });
  };

  const processes: ServiceProcess[] = [];
  const starting: Promise<ServiceProcess>[] = [];
  for (const s of SERVICES) for (let r = 1; r <= replicasOf(s); r++) starting.push(launch(s, r));
  const results = await Promise.allSettled(starting);
  for (const r of results) if (r.status === 'fulfilled') processes.push(r.value);
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  const stopAll = async () => {
    const codes: Record<string, number | null> = {};
    await Promise.all(
      processes.map(async (p) => {
        if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
        codes[p.name] = await exited(p.child);
      }),
    );
    return codes;
  };
  if (failed.length > 0) {
    await stopAll();
    throw new Error(failed.map((f) => String((f.reason as Error).message ?? f.reason)).join('\n\n'));
  }

  const byName = (name: string) => {
    const p = processes.find((x) => x.name === name);
    if (!p) throw new Error(`no process ${name}`);
    return p;
  };

  return {
    processes,
    gateways: () => processes.filter((p) => p.service === 'gateway' && p.child.exitCode === null && p.child.signalCode === null).map((p) => p.url),
    urlsOf: (service) => processes.filter((p) => p.service === service && p.child.exitCode === null && p.child.signalCode === null).map((p) => p.url),
    async kill(name, signal = 'SIGTERM') {
      const p = byName(name);
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
      return exited(p.child);
    },
    async restart(name) {
      const old = byName(name);
      if (old.child.exitCode === null && old.child.signalCode === null) throw new Error(`${name} is still running`);
      const p = await launch(old.service, old.replica);
      processes[processes.indexOf(old)] = p;
      return p;
    },
    stop: stopAll,
  };
}
