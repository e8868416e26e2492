import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataSource, EntityManager } from 'typeorm';
import type { MessagingActivity } from './activity';
import { LIVE_INSTANCE_KEYS_SQL, type InstanceIdentity } from './instance-liveness';
import { rowsOf } from './sql';

export const JOB_CHANNEL = 'gaia_job';

export interface EnqueueOptions {
  /** At most one live job per (kind, dedupeKey): a repeat enqueue is ignored. */
  dedupeKey?: string;
  runAfter?: Date;
  maxAttempts?: number;
}

/** A dedupe key that lets one job of a kind be queued per UTC hour. */
const hourlyDedupeKey = (now: Date): string => `h:${now.toISOString().slice(0, 13)}`;

export interface JobContext {
  jobId: string;
  attempt: number;
  /** Extend the lease while a long step runs. */
  heartbeat(): Promise<void>;
  /** Aborted when the process shuts down: stop at the next safe point (the job resumes elsewhere). */
  signal: AbortSignal;
}

export type JobHandlerFn = (payload: unknown, ctx: JobContext) => Promise<void>;

/** Durable work queue in Postgres: enqueued in the caller's transaction, run with a lease, resumed after a crash. */
export interface JobQueue {
  enqueue(em: EntityManager, kind: string, payload: unknown, opts?: EnqueueOptions): Promise<string>;
}

/**
 * Periodic upkeep driven by the traffic it cleans up after: every `every`-th call queues the durable job `kind` in the
 * caller's transaction (durable with it), at most once per UTC hour (a repeat within the hour is a no-op insert).
 */
export class TrafficDrivenJob {
  private calls = 0;

  constructor(
    private readonly jobs: JobQueue,
    private readonly kind: string,
    private readonly every: number,
  ) {}

  async counted(em: EntityManager, now: Date): Promise<void> {
    if (++this.calls % this.every !== 0) return;
    await this.jobs.enqueue(em, this.kind, {}, { dedupeKey: hourlyDedupeKey(now) });
  }
}

export class PostgresJobQueue implements JobQueue {
  async enqueue(em: EntityManager, kind: string, payload: unknown, opts: EnqueueOptions = {}): Promise<string> {
    const id = randomUUID();
    const rows: { id: string }[] = await em.query(
      `INSERT INTO job (id, kind, dedupe_key, payload, run_after, max_attempts) VALUES ($1, $2, $3, $4, COALESCE($5, now()), $6)
       ON CONFLICT (kind, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING RETURNING id`,
      [id, kind, opts.dedupeKey ?? null, JSON.stringify(payload ?? null), opts.runAfter ?? null, opts.maxAttempts ?? 5],
    );
    await em.query(`SELECT pg_notify($1, $2)`, [JOB_CHANNEL, kind]);
    if (rows.length) return rows[0].id;
    const existing: { id: string }[] = await em.query(`SELECT id FROM job WHERE kind = $1 AND dedupe_key = $2`, [kind, opts.dedupeKey]);
    return existing[0]?.id ?? id;
  }
}

interface Worker {
  kind: string;
  leaseMs: number;
  handler: JobHandlerFn;
}

/**
 * Runs the jobs of the kinds this process hosts, up to `concurrency` at a time of each kind: a kind whose jobs are long
 * (a big file being translated) never holds the slots jobs of another kind (a new agent's upload) wait for.
 */
export class JobRunner {
  private readonly logger = new Logger('JobRunner');
  private readonly workers = new Map<string, Worker>();
  private readonly me = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer?: NodeJS.Timeout;
  /** jobs running now, per kind */
  private readonly running = new Map<string, number>();
  private stopped = true;
  private readonly abort = new AbortController();

  constructor(
    private readonly ds: DataSource,
    private readonly activity: MessagingActivity,
    private readonly opts: { pollMs: number; concurrency: number } = { pollMs: 1000, concurrency: 2 },
    private readonly instance: InstanceIdentity = { key: null },
  ) {}

  register(kind: string, handler: JobHandlerFn, leaseMs = 120_000): void {
    this.workers.set(kind, { kind, handler, leaseMs });
  }
  get kinds(): string[] {
    return [...this.workers.keys()];
  }

  start(): void {
    if (this.workers.size === 0) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    while (this.runningTotal() > 0) await new Promise((r) => setTimeout(r, 10));
  }

  kick(): void {
    if (!this.stopped) this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.fill(), ms);
  }

  private async fill(): Promise<void> {
    try {
      while (!this.stopped) {
        const free = this.kinds.filter((k) => (this.running.get(k) ?? 0) < this.opts.concurrency);
        if (!free.length) break;
        const claimed = await this.claim(free);
        if (!claimed) break;
        this.running.set(claimed.kind, (this.running.get(claimed.kind) ?? 0) + 1);
        void this.run(claimed).finally(() => {
          this.running.set(claimed.kind, (this.running.get(claimed.kind) ?? 1) - 1);
          this.schedule(0);
        });
      }
    } catch (e) {
      this.logger.error(`job poll failed: ${(e as Error).message}`);
    }
    this.schedule(this.opts.pollMs);
  }

  private runningTotal(): number {
    let n = 0;
    for (const c of this.running.values()) n += c;
    return n;
  }

  /**
   * Claims one due job: pending, or running with an expired lease, or running for an instance that is no
   * longer live (it died: its liveness lock is gone, so the job resumes now rather than when the lease ends). Only of
   * `kinds` (default: every kind hosted).
   */
  async claim(kinds: readonly string[] = this.kinds): Promise<{ id: string; kind: string; payload: unknown; attempts: number; max_attempts: number } | null> {
    if (kinds.length === 0) return null;
    const rows = rowsOf<{ id: string; kind: string; payload: unknown; attempts: number; max_attempts: number }>(
      await this.ds.query(
        `WITH due AS (
         SELECT id FROM job
         WHERE kind = ANY($1::text[]) AND run_after <= now()
           AND (status = 'pending' OR (status = 'running' AND (locked_until < now() OR (holder IS NOT NULL AND holder NOT IN ${LIVE_INSTANCE_KEYS_SQL}))))
         ORDER BY run_after, created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
       UPDATE job j SET status = 'running', attempts = j.attempts + 1, locked_by = $2, holder = ${this.instance.key ?? 'NULL'},
         locked_until = now() + (CASE j.kind ${[...this.workers.values()].map((_, i) => `WHEN $${i * 2 + 3} THEN $${i * 2 + 4}`).join(' ')} ELSE '120000' END || ' milliseconds')::interval
       FROM due WHERE j.id = due.id
       RETURNING j.id, j.kind, j.payload, j.attempts, j.max_attempts`,
        [kinds, this.me, ...[...this.workers.values()].flatMap((w) => [w.kind, String(w.leaseMs)])],
      ),
    );
    return rows[0] ?? null;
  }

  async run(job: { id: string; kind: string; payload: unknown; attempts: number; max_attempts: number }): Promise<void> {
    const w = this.workers.get(job.kind);
    if (!w) return;
    await this.activity.track(async () => {
      const ctx: JobContext = {
        jobId: job.id,
        attempt: job.attempts,
        signal: this.abort.signal,
        heartbeat: async () => {
          await this.ds.query(`UPDATE job SET locked_until = now() + ($2 || ' milliseconds')::interval WHERE id = $1 AND locked_by = $3`, [
            job.id,
            String(w.leaseMs),
            this.me,
          ]);
        },
      };
      try {
        await w.handler(job.payload, ctx);
        await this.ds.query(`UPDATE job SET status = 'done', finished_at = now(), locked_until = NULL, last_error = NULL WHERE id = $1`, [job.id]);
      } catch (e) {
        if (this.abort.signal.aborted) {
          // Shutting down: give the job back at once so another worker resumes it.
          await this.ds
            .query(`UPDATE job SET status = 'pending', attempts = GREATEST(attempts - 1, 0), locked_until = NULL WHERE id = $1`, [job.id])
            .catch(() => undefined);
          return;
        }
        const failed = job.attempts >= job.max_attempts;
        const message = (e as Error).message ?? String(e);
        this.logger.warn(`job ${job.kind} ${job.id} attempt ${job.attempts} failed${failed ? ' (giving up)' : ''}: ${message}`);
        await this.ds.query(
          `UPDATE job SET status = $2, last_error = $3, locked_until = NULL, finished_at = CASE WHEN $2 = 'failed' THEN now() END,
             run_after = now() + ($4 || ' milliseconds')::interval WHERE id = $1`,
          [job.id, failed ? 'failed' : 'pending', message.slice(0, 2000), String(Math.min(60_000, 500 * 2 ** job.attempts))],
        );
      }
    });
  }
}
