/** Worker-thread entry: builds one part of an agent off the main event loop (see learn-in-worker.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { pairsTextBytes, withinStoredBound } from './agent-artifacts.codec';
import { buildIndexPart, learnModelPart, measureQualityPart, parsePairsJsonl, type LearnWorkerData } from './learn-agent';

const data = workerData as LearnWorkerData;
try {
  if (data.part === 'bound') {
    // a model over the storage bound is read and written again (seconds for a large one): not on the main thread
    const { model } = withinStoredBound({ model: data.model, index: data.index }, data.textBytes);
    parentPort?.postMessage({ type: 'done', out: { model } }, [model.buffer as ArrayBuffer]);
  } else if (data.part === 'index') {
    const pairs = parsePairsJsonl(data.pairs);
    const index = buildIndexPart(pairs);
    parentPort?.postMessage({ type: 'done', out: { index, textBytes: pairsTextBytes(pairs) } }, [index.buffer as ArrayBuffer]);
  } else {
    const pairs = parsePairsJsonl(data.pairs);
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
