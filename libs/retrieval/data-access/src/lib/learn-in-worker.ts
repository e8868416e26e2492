import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
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

/** The built worker a process running from TypeScript sources learns in (null: inline); see `useLearnWorker`. */
let sourceRunWorker: string | null = null;

/**
 * From TypeScript sources (benchmarks), learn in the built worker threads (`dist/…/learn.worker.js`) as the compiled
 * services do, instead of inline on the main thread; null goes back to inline. No effect when running compiled.
 */
export function useLearnWorker(file: string | null): void {
  sourceRunWorker = file;
}

/**
 * Runs `learnAgent` in worker threads when running compiled (so HTTP, health checks and broker heartbeats keep
 * flowing during a long training); inline when running from TypeScript sources (tests). Resolves as soon as the
 * model and the index are learned; the model thread then goes on measuring the quality report (`measureQuality`).
 * What is stored stays within the storage bound (`withinStoredBound`, from the text bytes the index thread counts; a
 * model over it is written again in a third thread).
 */
export async function learnAgentOffThread(
  input: { pairsJsonl: Uint8Array; srcLang: string; tgtLang: string },
  onProgress: (fraction: number, message: string) => void,
  signal?: AbortSignal,
): Promise<LearnedAgent> {
  // Compiled: the worker sits beside this file. From TypeScript sources (tests) learning runs inline, unless a
  // benchmark named the built worker (useLearnWorker).
  const workerFile = __filename.endsWith('.js') ? join(__dirname, 'learn.worker.js') : sourceRunWorker;
  if (!workerFile || !existsSync(workerFile)) {
    await new Promise((r) => setImmediate(r));
    return learnAgent({ pairs: parsePairsJsonl(input.pairsJsonl), srcLang: input.srcLang, tgtLang: input.tgtLang }, onProgress);
  }
  // The index and the model are independent: build them in two threads at once (2 cores → ~max of both).
  const t0 = Date.now();
  const run = <T>(data: LearnWorkerData, progress?: (f: number, m: string) => void, onLearned?: (out: Omit<LearnOutput, 'index'>) => void) =>
    new Promise<T>((resolve, reject) => {
      const worker = new Worker(workerFile, { workerData: data });
      const abort = () => void worker.terminate().then(() => reject(new Error('learning aborted')));
      signal?.addEventListener('abort', abort, { once: true });
      worker.on('message', (m: { type: string; fraction?: number; message?: string; out?: unknown }) => {
        if (m.type === 'progress') progress?.(m.fraction ?? 0, m.message ?? '');
        else if (m.type === 'learned' && m.out) onLearned?.(m.out as Omit<LearnOutput, 'index'>);
        else if (m.type === 'done' && m.out) resolve(m.out as T);
        else if (m.type === 'error') reject(new Error(m.message));
      });
      worker.once('error', reject);
      worker.once('exit', (code) => {
        signal?.removeEventListener('abort', abort);
        if (code !== 0) reject(new Error(`learning worker (${data.part}) exited with ${code}`));
      });
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
