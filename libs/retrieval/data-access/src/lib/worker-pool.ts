import { Worker } from 'node:worker_threads';

/** What a pooled thread posts for a job: any number of messages, then one `done` (with `out`) or `error` (with `message`). */
export interface PoolMessage {
  type: string;
  out?: unknown;
  message?: string;
}

/** How a job rejects when its signal aborts it (its thread is ended). */
export class WorkerJobAbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'WorkerJobAbortedError';
  }
}

export interface WorkerPoolOptions {
  /** Threads kept for the next job once theirs is done (0: a thread per job, ended after it). */
  maxIdle: number;
  /** An idle thread ends after this long without a job. */
  idleMs: number;
}

export interface PoolJob {
  /** Aborting ends the job's thread (the job rejects). */
  signal?: AbortSignal;
  /** The thread ends after this job instead of waiting for the next (a large job's heap is not kept alive). */
  retire?: boolean;
  /** Every message of the job, `done` and `error` included. */
  onMessage?: (m: PoolMessage) => void;
}

/**
 * Worker threads that each run one job at a time and stay for the next: a thread's start (loading the engine's and the
 * contracts' modules) costs more than learning a small agent. An idle thread does not keep the process alive and ends
 * after `idleMs`. The thread's script reads its jobs from `parentPort` messages and answers each with messages ending
 * in `done` or `error`; a job whose thread exits, or is aborted, rejects and the thread is not reused.
 */
export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly idleTimers = new Map<Worker, NodeJS.Timeout>();

  constructor(
    private readonly file: string,
    private readonly options: WorkerPoolOptions,
  ) {}

  /** Threads waiting for a job. */
  get idleCount(): number {
    return this.idle.length;
  }

  run<T>(data: unknown, job: PoolJob = {}): Promise<T> {
    if (job.signal?.aborted) return Promise.reject(new WorkerJobAbortedError());
    const worker = this.take();
    return new Promise<T>((resolve, reject) => {
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        job.signal?.removeEventListener('abort', onAbort);
      };
      const fail = (e: Error) => {
        cleanup();
        void worker.terminate();
        reject(e);
      };
      const onMessage = (m: PoolMessage) => {
        job.onMessage?.(m);
        if (m.type === 'done') {
          cleanup();
          this.release(worker, job.retire ?? false);
          resolve(m.out as T);
        } else if (m.type === 'error') fail(new Error(m.message));
      };
      const onError = (e: Error) => fail(e);
      const onExit = (code: number) => fail(new Error(`worker thread exited with ${code} before its job was done`));
      const onAbort = () => fail(new WorkerJobAbortedError());
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      job.signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage(data);
    });
  }

  /** Ends the idle threads (a busy one ends with its job). */
  async close(): Promise<void> {
    const all = this.idle.splice(0);
    for (const w of all) clearTimeout(this.idleTimers.get(w));
    this.idleTimers.clear();
    await Promise.all(all.map((w) => w.terminate()));
  }

  private take(): Worker {
    const w = this.idle.pop();
    if (!w) {
      const created = new Worker(this.file);
      // an idle thread that dies (it should not) is no longer offered
      created.once('exit', () => this.drop(created));
      return created;
    }
    clearTimeout(this.idleTimers.get(w));
    this.idleTimers.delete(w);
    w.ref();
    return w;
  }

  private release(w: Worker, retire: boolean): void {
    if (retire || this.idle.length >= this.options.maxIdle) {
      void w.terminate();
      return;
    }
    w.unref();
    const timer = setTimeout(() => {
      this.drop(w);
      void w.terminate();
    }, this.options.idleMs);
    timer.unref();
    this.idleTimers.set(w, timer);
    this.idle.push(w);
  }

  private drop(w: Worker): void {
    const i = this.idle.indexOf(w);
    if (i >= 0) this.idle.splice(i, 1);
    clearTimeout(this.idleTimers.get(w));
    this.idleTimers.delete(w);
  }
}
