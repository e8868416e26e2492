import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fitsStoredBound } from './agent-artifacts.codec';
import {
  learnAgent,
  parsePairsJsonl,
  withBoundedCalibratedModel,
  type LearnedAgent,
  type LearnOutput,
  type LearnWorkerData,
  type QualityOutput,
} from './learn-agent';
import { WorkerJobAbortedError, WorkerPool, type PoolMessage } from './worker-pool';

/**
 * Learning threads kept for the next build: the two parts of one (index and model). A thread's start — loading the
 * engine and the contracts — takes about 0.4 s of CPU, more than learning a small agent (50 pairs: under 0.1 s), and a
 * kept thread's code is compiled already (2,500 synthetic pairs: 0.7–1.1 s a build against 2.6 s in new threads). What
 * it costs: the process' RSS after builds stays about 85 MB higher (60 pairs) to 180 MB (2,500 pairs, 220 KiB) while
 * the two threads wait, against 30 MB when they end (until LEARN_WORKER_IDLE_MS).
 */
export const LEARN_WORKERS_IDLE = 2;
/** An idle learning thread ends after this long without a build (its heap is given back). */
export const LEARN_WORKER_IDLE_MS = 30_000;
/**
 * A thread that learned from more pairs than this (JSONL bytes) ends after it instead of staying idle: what it
 * allocated is not kept alive by an idle thread, and against such a build (seconds) a new thread's start is small.
 */
export const LEARN_WORKER_REUSE_MAX_BYTES = 256 * 1024;

/** Compiled (the services): the learning worker sits beside this file. From TypeScript sources (tests): inline. */
const COMPILED = __filename.endsWith('.js');
/** The learning threads: of the compiled worker (made on the first build), or of the one a benchmark named. */
let pool: WorkerPool | null = null;

const learnThreads = (file: string, idleThreads: number): WorkerPool => new WorkerPool(file, { maxIdle: idleThreads, idleMs: LEARN_WORKER_IDLE_MS });

/**
 * From TypeScript sources (benchmarks), learn in the built worker threads (`dist/…/learn.worker.js`) as the compiled
 * services do, instead of inline on the main thread; null goes back to inline. No effect when running compiled.
 * `idleThreads` 0: a thread per part of each build, ended after it (as before threads were kept; for comparison).
 */
export function useLearnWorker(file: string | null, idleThreads = LEARN_WORKERS_IDLE): void {
  if (COMPILED) return;
  void pool?.close();
  pool = file && existsSync(file) ? learnThreads(file, idleThreads) : null;
}

/** The learning threads; null: learn inline. */
function learnPool(): WorkerPool | null {
  if (pool || !COMPILED) return pool;
  const file = join(__dirname, 'learn.worker.js');
  return existsSync(file) ? (pool = learnThreads(file, LEARN_WORKERS_IDLE)) : null;
}

/**
 * Runs `learnAgent` in worker threads when running compiled (so HTTP, health checks and broker heartbeats keep
 * flowing during a long training); inline when running from TypeScript sources (tests). Resolves as soon as the
 * model and the index are learned; the model thread then goes on measuring the quality report (`measureQuality`).
 * What is stored stays within the storage bound (`withinStoredBound`, from the text bytes the index thread counts; a
 * model over it is written again in a third thread). Threads are reused from build to build (`LEARN_WORKERS_IDLE`).
 */
export async function learnAgentOffThread(
  input: { pairsJsonl: Uint8Array; srcLang: string; tgtLang: string },
  onProgress: (fraction: number, message: string) => void,
  signal?: AbortSignal,
): Promise<LearnedAgent> {
  const threads = learnPool();
  if (!threads) {
    await new Promise((r) => setImmediate(r));
    return learnAgent({ pairs: parsePairsJsonl(input.pairsJsonl), srcLang: input.srcLang, tgtLang: input.tgtLang }, onProgress);
  }
  // The index and the model are independent: build them in two threads at once (2 cores → ~max of both).
  const t0 = Date.now();
  const large = input.pairsJsonl.byteLength > LEARN_WORKER_REUSE_MAX_BYTES;
  const run = <T>(data: LearnWorkerData, progress?: (f: number, m: string) => void, onLearned?: (out: Omit<LearnOutput, 'index'>) => void) =>
    threads
      .run<T>(data, {
        signal,
        retire: large,
        onMessage: (m: PoolMessage & { fraction?: number }) => {
          if (m.type === 'progress') progress?.(m.fraction ?? 0, m.message ?? '');
          else if (m.type === 'learned' && m.out) onLearned?.(m.out as Omit<LearnOutput, 'index'>);
        },
      })
      .catch((e: Error) => {
        throw e instanceof WorkerJobAbortedError ? new Error('learning aborted') : e;
      });
  onProgress(0.02, 'Indexing examples and learning core memory');
  let learned!: (out: Omit<LearnOutput, 'index'>) => void;
  const modelPart = new Promise<Omit<LearnOutput, 'index'>>((resolve) => (learned = resolve));
  const learn = (part: 'index' | 'model'): LearnWorkerData => ({ part, pairs: input.pairsJsonl, srcLang: input.srcLang, tgtLang: input.tgtLang });
  const quality = run<QualityOutput>(learn('model'), (f, m) => onProgress(0.05 + 0.9 * f, m), learned);
  quality.catch(() => undefined); // awaited by measureQuality (a failure of the model part itself rejects below)
  const [indexPart, model] = await Promise.all([
    run<{ index: Uint8Array; textBytes: number }>(learn('index')),
    Promise.race([modelPart, quality.then(() => modelPart)]),
  ]);
  const { index, textBytes } = indexPart;
  const within = async (m: Uint8Array): Promise<Uint8Array> =>
    fitsStoredBound({ model: m, index }, textBytes) ? m : (await run<{ model: Uint8Array }>({ part: 'bound', model: m, index, textBytes })).model;
  const stored = await within(model.model);
  const bounded = quality.then((q) => withBoundedCalibratedModel(q, within));
  bounded.catch(() => undefined);
  onProgress(1, 'Learned');
  return { learned: { ...model, model: stored, index, stats: { ...model.stats, trainingMs: Date.now() - t0 } }, measureQuality: () => bounded };
}
