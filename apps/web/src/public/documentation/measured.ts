import { builtin, date as translationDate, inputs as translationInputs } from '../../../../../bench/results/translation.json';
import { date as ingestionDate, pairs as ingestionPairs, qualityReportAfterReady, uploadToReadyAgent } from '../../../../../bench/results/ingestion.json';
import {
  agents as scaleAgents,
  date as scaleDate,
  http as scaleHttp,
  latencyMs as scaleLatency,
  memory as scaleMemory,
  storage as scaleStorage,
} from '../../../../../bench/results/scale.json';

/** Where the documentation page's figures come from (committed benchmark results, read at build time). */
export const BENCH_SOURCES = ['bench/results/translation.json', 'bench/results/ingestion.json', 'bench/results/scale.json'] as const;

const CONNECTIONS_SHOWN = 8;
const at8 = scaleHttp.points.find((p) => p.connections === CONNECTIONS_SHOWN) ?? scaleHttp.points[0];

/**
 * Figures the benchmarks measured, for the documentation page (never typed in by hand): the response time the
 * translate API reports for the built-in engine (median and 99th percentile over `samples` requests), and the time
 * from uploading `pairs` sentence pairs to a ready agent, and how long after that its quality report lands.
 */
export const MEASURED = {
  responseTime: {
    p50Seconds: builtin.responseTimeReportedMs.p50 / 1000,
    p99Seconds: builtin.responseTimeReportedMs.p99 / 1000,
    samples: builtin.responseTimeReportedMs.n,
    inputs: translationInputs,
    date: translationDate,
  },
  uploadToReady: {
    seconds: uploadToReadyAgent.ms / 1000,
    pairs: ingestionPairs,
    date: ingestionDate,
    qualityReportAfterSeconds: qualityReportAfterReady.ms / 1000,
  },
  /** `npm run bench:scale`: many agents served by one process, compact artifacts, cold loads, HTTP throughput. */
  scale: {
    agents: scaleAgents.count,
    pairs: scaleAgents.pairs,
    maxRssMB: scaleMemory.maxRssMB,
    bytesPerPair: scaleStorage.artifactBytesPerPair,
    coldSeconds: scaleLatency.coldFirstTranslationGn.p50 / 1000,
    connections: at8.connections,
    requestsPerSecond: at8.engine.reqPerSec,
    date: scaleDate,
  },
} as const;
