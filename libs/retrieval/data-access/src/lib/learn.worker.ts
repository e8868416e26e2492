/** Worker-thread entry: learns an agent off the main event loop (see learn-in-worker.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { learnAgent, parsePairsJsonl } from './learn-agent';

const data = workerData as { pairs: Uint8Array; srcLang: string; tgtLang: string };
try {
  const out = learnAgent({ pairs: parsePairsJsonl(data.pairs), srcLang: data.srcLang, tgtLang: data.tgtLang }, (fraction, message) =>
    parentPort?.postMessage({ type: 'progress', fraction, message }),
  );
  parentPort?.postMessage({ type: 'done', out }, [out.model.buffer as ArrayBuffer, out.index.buffer as ArrayBuffer]);
} catch (e) {
  parentPort?.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
}
