import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, Module } from '@nestjs/common';
import { Observable } from 'rxjs';
import request from 'supertest';
import type { DataSource } from 'typeorm';
import { AgentsModule } from '@gaia/agents/feature';
import { agentsSchema } from '@gaia/agents/data-access';
import { billingSchema } from '@gaia/billing/data-access';
import { BillingModule, QuotaLeases } from '@gaia/billing/feature';
import { GaiaClient } from '@gaia/client';
import type { TranslateRpcRequest, TranslationEventDto } from '@gaia/contracts';
import { identitySchema } from '@gaia/identity/data-access';
import { DATA_SOURCE } from '@gaia/shared/database';
import { OnRpc, OUTBOX, RPC_CLIENT, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import { createTestApp, createTestDatabase, waitFor, type TestApp, type TestDatabase } from '@gaia/testing';
import { createAgent } from '../api/support/agents';
import { cookieValue } from '../api/support/api-app';

const ROOT = join(__dirname, '../..');
const GATEWAY = join(ROOT, 'dist/apps/gateway/main.js');
const NATS_URL = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
/**
 * Segments of the file: the first translated in the upload request, then chunks of 20 in two jobs (slices of 5
 * chunks): 1-100, then 101-120.
 */
const SEGMENTS = 121;
/** The segment the stand-in holds (in the second job's chunk) until the gateway running the job is killed. */
const HELD = 110;

/**
 * The translation contract over NATS with a deterministic engine (upper-cases the text), recording usage once per
 * request id like the real service. A text starting with `alto` is held (no answer) until `release()`.
 */
@Injectable()
class HeldTranslation {
  readonly requests: TranslateRpcRequest[] = [];
  private readonly held: Array<() => void> = [];
  private holding = true;
  private arrive!: () => void;
  private arrival = new Promise<void>((r) => (this.arrive = r));

  constructor(
    @Inject(OUTBOX) private readonly outbox: Outbox,
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
  ) {}

  /** Resolves once an `alto` text is held. */
  whenHeld(): Promise<void> {
    return this.arrival;
  }

  /** Answers the held texts; later ones are answered at once until `hold()`. */
  release(): void {
    this.holding = false;
    for (const answer of this.held.splice(0)) answer();
  }

  hold(): void {
    this.holding = true;
    this.arrival = new Promise<void>((r) => (this.arrive = r));
  }

  @OnRpc('translation.translate.v1')
  translate(req: TranslateRpcRequest): Observable<TranslationEventDto> {
    this.requests.push(req);
    return new Observable<TranslationEventDto>((sub) => {
      const answer = () => {
        const words = req.text.split(/\s+/).length;
        const usage = {
          requestId: req.requestId,
          keyId: req.caller.keyId,
          userId: req.caller.userId,
          agentId: req.model_id,
          sourceWords: words,
          inputTokens: 0,
          outputTokens: 0,
          engine: 'builtin' as const,
          fallbackReason: null,
          latencyMs: 1,
          occurredAt: new Date().toISOString(),
        };
        void this.ds
          .transaction((em) => this.outbox.add(em, 'usage.recorded.v1', usage))
          .then(
            () => {
              const final = req.text.toUpperCase();
              sub.next({ type: 'translation_chunk', content: final });
              sub.next({
                type: 'translation_complete',
                final_translation: final,
                response_time: 0.01,
                source_text: req.text,
                source_language: req.src_lang,
                target_language: req.tgt_lang,
                confidence: 0.9,
                untranslated: [],
                applied_terms: [],
                engine: 'builtin',
              });
              sub.complete();
            },
            (e: unknown) => sub.error(e),
          );
      };
      if (req.text.startsWith('alto') && this.holding) {
        this.held.push(answer);
        this.arrive();
      } else answer();
    });
  }
}

@Module({ providers: [HeldTranslation], exports: [HeldTranslation] })
class HeldTranslationModule {}

interface Gateway {
  child: ChildProcess;
  url: string;
  output(): string;
}

function startGateway(name: string, db: TestDatabase, dataDir: string): Promise<Gateway> {
  if (!existsSync(GATEWAY)) throw new Error(`${GATEWAY} is missing: build first (node tools/build.mjs --backend)`);
  const child = spawn(process.execPath, [GATEWAY], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '4',
      MIGRATIONS_RUN: 'false',
      MESSAGING_TRANSPORT: 'nats',
      MESSAGING_NAMESPACE: db.name,
      NATS_URL,
      OUTBOX_POLL_MS: '200',
      REDIS_URL: '',
      DATA_DIR: join(dataDir, name),
      FILE_STORAGE_DIR: join(dataDir, 'files'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  return new Promise<Gateway>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /Gaia is running at (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1], output: () => out });
    });
    child.once('exit', (code) => reject(new Error(`${name} exited early (${code}): ${out.slice(-3000)}`)));
  });
}

const exited = (c: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) return resolve();
    c.once('exit', () => resolve());
    c.kill(signal);
  });

/**
 * File translation is a durable job (no hole a crash can use): the gateway process running a file's translation is
 * killed (SIGKILL) or stopped (SIGTERM) in the middle of the file; another gateway process takes the job over and
 * finishes it from the last saved chunk. The download is the whole file, and every segment is metered once (usage
 * records, authorizations and the key's quota counter), although the chunk in flight was translated twice.
 */
describe('file translation: the gateway running it is killed or stopped mid-file', () => {
  let db: TestDatabase;
  let backend: TestApp;
  const gateways: Gateway[] = [];

  beforeAll(async () => {
    const schemas = [identitySchema, agentsSchema, billingSchema];
    db = await createTestDatabase({ schemas, prefix: 'gaia_file_crash' });
    // The services behind the gateway (agents, billing, the translation stand-in) in this process, on NATS.
    backend = await createTestApp({
      schemas,
      consumers: ['agents', 'billing', 'translation'],
      imports: [AgentsModule, BillingModule.forRoot(), HeldTranslationModule],
      transport: 'nats',
      env: { NATS_URL },
      database: db,
    });
  });

  afterAll(async () => {
    for (const g of gateways) await exited(g.child, 'SIGTERM');
    await backend?.close();
  });

  /** A Starter-plan user with an agent and an API key, signed up through a gateway. */
  async function newCaller(url: string, name: string): Promise<{ uid: string; agentId: string; apiKey: string; keyId: string }> {
    const email = `${name}-${Date.now().toString(36)}@example.org`;
    const signup = await request(url).post('/api/auth/signup').send({ email, password: 'file crash password' }).expect(201);
    const uid = signup.body.user.uid as string;
    const csrf = cookieValue(signup, 'gaia_csrf')!;
    const cookie = `gaia_session=${cookieValue(signup, 'gaia_session')}; gaia_csrf=${csrf}`;
    await backend.app.get<RpcClient>(RPC_CLIENT).call('billing.set-plan.v1', { userId: uid, plan: 'starter' });
    const agent = await createAgent(backend.app, { ownerId: uid, ownerEmail: email, srcLang: 'es', tgtLang: 'qu', customPrompt: name });
    const apiKey = (await request(url).post('/api/api-keys/create/').set('Cookie', cookie).set('X-CSRF-Token', csrf).send({ name }).expect(200)).body
      .api_key as string;
    const [{ id: keyId }] = await backend.dataSource.query(`SELECT id FROM identity_api_key WHERE user_id = $1`, [uid]);
    return { uid, agentId: agent.id, apiKey, keyId };
  }

  const upload = (url: string, c: { apiKey: string; agentId: string }, content: string) =>
    new GaiaClient({ baseUrl: url, apiKey: c.apiKey }).translateFile({
      model_id: c.agentId,
      src_lang: 'es',
      tgt_lang: 'qu',
      file: { name: 'largo.txt', data: content },
    });

  /** Waits for the task on a gateway; expects it COMPLETED with every segment and the whole file to download. */
  async function expectCompleted(url: string, apiKey: string, taskId: string, segments: number, content: string): Promise<void> {
    const client = new GaiaClient({ baseUrl: url, apiKey });
    const task = await waitFor(
      async () => (await client.translateFileStatus(taskId)).task,
      (t) => t.status !== 'PROCESSING',
      { what: 'the file task to finish after the stop', timeoutMs: 60_000, intervalMs: 100 },
    );
    expect(task).toMatchObject({ status: 'COMPLETED', progress: 100, total_segments: segments, translated_segments: segments, failed_segments: 0 });
    expect(new TextDecoder().decode(await client.downloadTranslatedFile(taskId))).toBe(content.toUpperCase());
  }

  /**
   * One usage record and one authorization per segment, each with the one request id its segment was asked with
   * (asked twice or not), and one unit of the key's counter per segment once billing wrote what it authorized from
   * its quota leases and gave their unused units back.
   */
  async function expectMeteredOnce(c: { uid: string; keyId: string }, segments: number, texts: string[]): Promise<void> {
    const standIn = backend.app.get(HeldTranslation);
    const ids = new Map<string, Set<string>>();
    for (const r of standIn.requests.filter((r) => texts.includes(r.text))) ids.set(r.text, (ids.get(r.text) ?? new Set()).add(r.requestId));
    expect(ids.size).toBe(segments);
    expect([...ids.values()].every((s) => s.size === 1)).toBe(true);
    const requestIds = new Set([...ids.values()].map((s) => [...s][0]));
    const usage = await waitFor(
      () => backend.dataSource.query(`SELECT request_id FROM billing_usage WHERE user_id = $1`, [c.uid]) as Promise<Array<{ request_id: string }>>,
      (rows) => rows.length >= segments,
      { what: 'usage of every segment', timeoutMs: 60_000 },
    );
    expect(usage).toHaveLength(segments);
    expect(new Set(usage.map((r) => r.request_id))).toEqual(requestIds);
    const leases = backend.app.get(QuotaLeases);
    await leases.flush();
    await leases.returnIdle(0);
    const authorized = (await backend.dataSource.query(`SELECT request_id FROM billing_authorization WHERE key_id = $1 AND status = 'allowed'`, [
      c.keyId,
    ])) as Array<{ request_id: string }>;
    expect(new Set(authorized.map((r) => r.request_id))).toEqual(requestIds);
    const [{ n: units }] = await backend.dataSource.query(`SELECT COALESCE(sum(count), 0)::int AS n FROM billing_counter WHERE subject = $1`, [
      `key:${c.keyId}:requests`,
    ]);
    expect(units).toBe(segments);
  }

  it('resumes in another gateway process: complete download, each segment metered once', async () => {
    const standIn = backend.app.get(HeldTranslation);
    standIn.hold();
    const gw1 = await startGateway('gw-1', db, backend.dataDir);
    gateways.push(gw1);
    const c = await newCaller(gw1.url, 'file-crash');
    const lines = Array.from({ length: SEGMENTS }, (_, i) => (i === HELD ? `alto ${i}` : `línea ${i}`));
    const content = `${lines.join('\n')}\n`;
    const started = await upload(gw1.url, c, content);
    expect(started.total_segments).toBe(SEGMENTS);

    // The second job is in its chunk, one segment of it unanswered: the process running it dies.
    await standIn.whenHeld();
    await exited(gw1.child, 'SIGKILL');
    gateways.splice(gateways.indexOf(gw1), 1);
    // The held translation finishes after all (its usage is recorded), answering nobody.
    standIn.release();

    const gw2 = await startGateway('gw-2', db, backend.dataDir);
    gateways.push(gw2);
    await expectCompleted(gw2.url, c.apiKey, started.task_id, SEGMENTS, content);
    // Resumed from the last saved chunk, not started over: the first job's segments (and the upload's) were asked once.
    const asked = (text: string) => standIn.requests.filter((r) => r.text === text).length;
    for (let i = 0; i <= 100; i++) expect(asked(lines[i])).toBe(1);
    expect(asked(lines[HELD])).toBe(2);
    await expectMeteredOnce(c, SEGMENTS, lines);
    await exited(gw2.child, 'SIGTERM');
    gateways.splice(gateways.indexOf(gw2), 1);
  }, 180_000);

  it('a gateway stopped (SIGTERM) mid-file gives the job back at the chunk boundary; another one finishes it', async () => {
    const standIn = backend.app.get(HeldTranslation);
    standIn.hold();
    const gw3 = await startGateway('gw-3', db, backend.dataDir);
    gateways.push(gw3);
    const c = await newCaller(gw3.url, 'file-stop');
    const segments = 61;
    const held = 30;
    const lines = Array.from({ length: segments }, (_, i) => (i === held ? `alto stop ${i}` : `stop ${i}`));
    const content = `${lines.join('\n')}\n`;
    const started = await upload(gw3.url, c, content);

    // Its second chunk waits on one segment when the process is asked to stop; the job sees the shutdown, then the segment is answered.
    await standIn.whenHeld();
    const stopped = new Promise<number | null>((resolve) => gw3.child.once('exit', (code) => resolve(code)));
    gw3.child.kill('SIGTERM');
    await waitFor(
      async () => gw3.output(),
      (out) => out.includes(`file task ${started.task_id}: shutting down`),
      { what: 'the job to see the shutdown' },
    );
    standIn.release();
    expect(await stopped).toBe(0);
    gateways.splice(gateways.indexOf(gw3), 1);
    // Given back, not finished: the job is pending again, the task saved up to the chunk before.
    const [job] = await backend.dataSource.query(`SELECT status FROM job WHERE kind = 'gateway.translate-file' AND dedupe_key = $1`, [`${started.task_id}@1`]);
    expect(job.status).toBe('pending');

    const gw4 = await startGateway('gw-4', db, backend.dataDir);
    gateways.push(gw4);
    await expectCompleted(gw4.url, c.apiKey, started.task_id, segments, content);
    const asked = (text: string) => standIn.requests.filter((r) => r.text === text).length;
    for (let i = 0; i <= 20; i++) expect(asked(lines[i])).toBe(1);
    // The cut chunk was redone (with the same request ids).
    expect(asked(lines[held])).toBe(2);
    await expectMeteredOnce(c, segments, lines);
  }, 180_000);
});
