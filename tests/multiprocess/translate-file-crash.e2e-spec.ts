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
  private released = false;
  private arrive!: () => void;
  readonly arrived = new Promise<void>((r) => (this.arrive = r));

  constructor(
    @Inject(OUTBOX) private readonly outbox: Outbox,
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
  ) {}

  release(): void {
    this.released = true;
    for (const answer of this.held.splice(0)) answer();
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
      if (req.text.startsWith('alto') && !this.released) {
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
      if (m) resolve({ child, url: m[1] });
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
 * killed (SIGKILL) in the middle of the file; another gateway process takes the job over and finishes it from the
 * last saved chunk. The download is the whole file, and every segment is metered once (usage records and the
 * key's quota counter), although the chunk in flight was translated twice.
 */
describe('file translation: the gateway running it is killed mid-file', () => {
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

  it('resumes in another gateway process: complete download, each segment metered once', async () => {
    const standIn = backend.app.get(HeldTranslation);
    const gw1 = await startGateway('gw-1', db, backend.dataDir);
    gateways.push(gw1);

    const email = `file-crash-${Date.now().toString(36)}@example.org`;
    const signup = await request(gw1.url).post('/api/auth/signup').send({ email, password: 'file crash password' }).expect(201);
    const uid = signup.body.user.uid as string;
    const csrf = cookieValue(signup, 'gaia_csrf')!;
    const cookie = `gaia_session=${cookieValue(signup, 'gaia_session')}; gaia_csrf=${csrf}`;
    await backend.app.get<RpcClient>(RPC_CLIENT).call('billing.set-plan.v1', { userId: uid, plan: 'starter' });
    const agent = await createAgent(backend.app, { ownerId: uid, ownerEmail: email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'file crash' });
    const apiKey = (await request(gw1.url).post('/api/api-keys/create/').set('Cookie', cookie).set('X-CSRF-Token', csrf).send({ name: 'files' }).expect(200))
      .body.api_key as string;
    const [{ id: keyId }] = await backend.dataSource.query(`SELECT id FROM identity_api_key WHERE user_id = $1`, [uid]);

    const lines = Array.from({ length: SEGMENTS }, (_, i) => (i === HELD ? `alto ${i}` : `línea ${i}`));
    const content = `${lines.join('\n')}\n`;
    const started = await new GaiaClient({ baseUrl: gw1.url, apiKey }).translateFile({
      model_id: agent.id,
      src_lang: 'es',
      tgt_lang: 'qu',
      file: { name: 'largo.txt', data: content },
    });
    expect(started.total_segments).toBe(SEGMENTS);

    // The second job is in its chunk, one segment of it unanswered: the process running it dies.
    await standIn.arrived;
    await exited(gw1.child, 'SIGKILL');
    gateways.splice(gateways.indexOf(gw1), 1);
    // The held translation finishes after all (its usage is recorded), answering nobody.
    standIn.release();

    const gw2 = await startGateway('gw-2', db, backend.dataDir);
    gateways.push(gw2);
    const client = new GaiaClient({ baseUrl: gw2.url, apiKey });
    const task = await waitFor(
      async () => (await client.translateFileStatus(started.task_id)).task,
      (t) => t.status !== 'PROCESSING',
      { what: 'the file task to finish after the crash', timeoutMs: 60_000, intervalMs: 100 },
    );
    expect(task).toMatchObject({ status: 'COMPLETED', progress: 100, total_segments: SEGMENTS, translated_segments: SEGMENTS, failed_segments: 0 });
    expect(new TextDecoder().decode(await client.downloadTranslatedFile(started.task_id))).toBe(content.toUpperCase());

    // Resumed from the last saved chunk, not started over: the first job's segments (and the upload's) were asked once.
    const asked = (text: string) => standIn.requests.filter((r) => r.text === text).length;
    for (let i = 0; i <= 100; i++) expect(asked(`línea ${i}`)).toBe(1);
    expect(asked(`alto ${HELD}`)).toBe(2);
    // A segment asked twice was asked with the same request id (billing's idempotency key).
    const ids = new Map<string, Set<string>>();
    for (const r of standIn.requests) ids.set(r.text, (ids.get(r.text) ?? new Set()).add(r.requestId));
    expect([...ids.values()].every((s) => s.size === 1)).toBe(true);

    // Usage: one record per segment; quota: one unit per segment on the key's counter.
    const usage = await waitFor(
      () => backend.dataSource.query(`SELECT request_id FROM billing_usage WHERE user_id = $1`, [uid]) as Promise<Array<{ request_id: string }>>,
      (rows) => rows.length >= SEGMENTS,
      { what: 'usage of every segment', timeoutMs: 60_000 },
    );
    expect(usage).toHaveLength(SEGMENTS);
    expect(new Set(usage.map((r) => r.request_id))).toEqual(new Set([...ids.values()].map((s) => [...s][0])));
    // Billing writes what it authorized from its quota leases and gives their unused units back: the key's counter
    // then holds the units used, one per authorized request id.
    const leases = backend.app.get(QuotaLeases);
    await leases.flush();
    await leases.returnIdle(0);
    const authorized = (await backend.dataSource.query(`SELECT request_id FROM billing_authorization WHERE key_id = $1 AND status = 'allowed'`, [
      keyId,
    ])) as Array<{ request_id: string }>;
    expect(new Set(authorized.map((r) => r.request_id))).toEqual(new Set(usage.map((r) => r.request_id)));
    const [{ n: units }] = await backend.dataSource.query(`SELECT COALESCE(sum(count), 0)::int AS n FROM billing_counter WHERE subject = $1`, [
      `key:${keyId}:requests`,
    ]);
    expect(units).toBe(SEGMENTS);
  }, 180_000);
});
