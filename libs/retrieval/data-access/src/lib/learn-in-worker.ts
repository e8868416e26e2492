import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { learnAgent, parsePairsJsonl, type LearnOutput } from './learn-agent';

/**
 * Runs `learnAgent` in a worker thread when running compiled (so HTTP, health checks and broker
 * heartbeats keep flowing during a long training); inline when running from TypeScript sources (tests).
 */
export async function learnAgentOffThread(
  input: { pairsJsonl: Uint8Array; srcLang: string; tgtLang: string },
  onProgress: (fraction: number, message: string) => void,
  signal?: AbortSignal,
): Promise<LearnOutput> {
  const workerFile = join(__dirname, 'learn.worker.js');
  if (!__filename.endsWith('.js') || !existsSync(workerFile)) {
    await new Promise((r) => setImmediate(r));
    return learnAgent({ pairs: parsePairsJsonl(input.pairsJsonl), srcLang: input.srcLang, tgtLang: input.tgtLang }, onProgress);
  }
  return new Promise<LearnOutput>((resolve, reject) => {
    const worker = new Worker(workerFile, { workerData: { pairs: input.pairsJsonl, srcLang: input.srcLang, tgtLang: input.tgtLang } });
    const abort = () => void worker.terminate().then(() => reject(new Error('learning aborted')));
    signal?.addEventListener('abort', abort, { once: true });
    worker.on('message', (m: { type: string; fraction?: number; message?: string; out?: LearnOutput }) => {
      if (m.type === 'progress') onProgress(m.fraction ?? 0, m.message ?? '');
      else if (m.type === 'done' && m.out) resolve(m.out);
      else if (m.type === 'error') reject(new Error(m.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      signal?.removeEventListener('abort', abort);
      if (code !== 0) reject(new Error(`learning worker exited with ${code}`));
    });
  });
}
