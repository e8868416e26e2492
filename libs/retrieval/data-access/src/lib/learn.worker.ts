/** Worker-thread entry: builds one part of an agent off the main event loop (see learn-in-worker.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { buildIndexPart, learnModelPart, parsePairsJsonl } from './learn-agent';

const data = workerData as { part: 'index' | 'model'; pairs: Uint8Array; srcLang: string; tgtLang: string };
try {
  const pairs = parsePairsJsonl(data.pairs);
  if (data.part === 'index') {
    const index = buildIndexPart(pairs);
    parentPort?.postMessage({ type: 'done', out: { index } }, [index.buffer as ArrayBuffer]);
  } else {
    const out = learnModelPart({ pairs, srcLang: data.srcLang, tgtLang: data.tgtLang }, (fraction, message) => parentPort?.postMessage({ type: 'progress', fraction, message }));
    parentPort?.postMessage({ type: 'done', out }, [out.model.buffer as ArrayBuffer]);
  }
} catch (e) {
  parentPort?.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
}
