/** Worker-thread entry: builds parts of agents off the main event loop, one job per message (see learn-in-worker.ts). */
import { parentPort } from 'node:worker_threads';
import { pairsTextBytes, withinStoredBound } from './agent-artifacts.codec';
import { buildIndexPart, learnModelPart, measureQualityPart, parsePairsJsonl, type LearnWorkerData } from './learn-agent';

function run(data: LearnWorkerData): void {
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
}

parentPort?.on('message', (data: LearnWorkerData) => {
  try {
    run(data);
  } catch (e) {
    parentPort?.postMessage({ type: 'error', message: e instanceof Error ? e.message : String(e) });
  }
});
