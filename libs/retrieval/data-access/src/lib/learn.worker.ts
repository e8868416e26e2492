/** Worker-thread entry: builds one part of an agent off the main event loop (see learn-in-worker.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { pairsTextBytes } from './agent-artifacts.codec';
import { buildIndexPart, learnModelPart, measureQualityPart, parsePairsJsonl } from './learn-agent';

const data = workerData as { part: 'index' | 'model'; pairs: Uint8Array; srcLang: string; tgtLang: string };
try {
  const pairs = parsePairsJsonl(data.pairs);
  if (data.part === 'index') {
    const index = buildIndexPart(pairs);
    parentPort?.postMessage({ type: 'done', out: { index, textBytes: pairsTextBytes(pairs) } }, [index.buffer as ArrayBuffer]);
  } else {
    const { part, model } = learnModelPart({ pairs, srcLang: data.srcLang, tgtLang: data.tgtLang }, (fraction, message) =>
      parentPort?.postMessage({ type: 'progress', fraction, message }),
    );
    // the version can be served now; its quality report (held-out model, evaluation, calibration) follows
    parentPort?.postMessage({ type: 'learned', out: part }, [part.model.buffer as ArrayBuffer]);
    const quality = measureQualityPart(pairs, model);
    parentPort?.postMessage({ type: 'done', out: quality });
  }
} catch (e) {
  parentPort?.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
}
