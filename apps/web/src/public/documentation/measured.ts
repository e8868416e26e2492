import { builtin, date as translationDate, inputs as translationInputs } from '../../../../../bench/results/translation.json';
import { date as ingestionDate, pairs as ingestionPairs, uploadToReadyAgent } from '../../../../../bench/results/ingestion.json';

/** Where the documentation page's figures come from (committed benchmark results, read at build time). */
export const BENCH_SOURCES = ['bench/results/translation.json', 'bench/results/ingestion.json'] as const;

/**
 * Figures the benchmarks measured, for the documentation page (never typed in by hand): the response time the
 * translate API reports for the built-in engine (median and 99th percentile over `samples` requests), and the time
 * from uploading `pairs` sentence pairs to a ready agent.
 */
export const MEASURED = {
  responseTime: { p50Seconds: builtin.responseTimeReportedMs.p50 / 1000, p99Seconds: builtin.responseTimeReportedMs.p99 / 1000, samples: builtin.responseTimeReportedMs.n, inputs: translationInputs, date: translationDate },
  uploadToReady: { seconds: uploadToReadyAgent.ms / 1000, pairs: ingestionPairs, date: ingestionDate },
} as const;
