import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BENCH_SOURCES, MEASURED } from './measured';

const repo = resolve(__dirname, '../../../../..');
const read = (file: string) => JSON.parse(readFileSync(resolve(repo, file), 'utf8'));

describe('the documentation page figures', () => {
  it('are the ones the committed benchmark results measured', () => {
    const [translation, ingestion, scale] = BENCH_SOURCES.map(read);
    expect(MEASURED.responseTime.p50Seconds * 1000).toBeCloseTo(translation.builtin.responseTimeReportedMs.p50, 6);
    expect(MEASURED.responseTime.p99Seconds * 1000).toBeCloseTo(translation.builtin.responseTimeReportedMs.p99, 6);
    expect(MEASURED.responseTime.samples).toBe(translation.builtin.responseTimeReportedMs.n);
    expect(MEASURED.uploadToReady.seconds * 1000).toBe(ingestion.uploadToReadyAgent.ms);
    expect(MEASURED.uploadToReady.pairs).toBe(ingestion.pairs);
    expect(MEASURED.uploadToReady.qualityReportAfterSeconds * 1000).toBe(ingestion.qualityReportAfterReady.ms);
    expect(MEASURED.scale.agents).toBe(scale.agents.count);
    expect(MEASURED.scale.maxRssMB).toBe(scale.memory.maxRssMB);
    expect(MEASURED.scale.bytesPerPair).toBe(scale.storage.artifactBytesPerPair);
    expect(MEASURED.scale.coldSeconds * 1000).toBeCloseTo(scale.latencyMs.coldFirstTranslationGn.p50, 6);
    expect(MEASURED.scale.requestsPerSecond).toBe(scale.http.points.find((p: { connections: number }) => p.connections === 8).engine.reqPerSec);
  });
});
