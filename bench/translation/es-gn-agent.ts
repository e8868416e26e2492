/**
 * The benchmark agent: every pair of the AmericasNLP 2021 es–gn training set (26,032 pairs), read in
 * place from /work/shared/data (never copied into the repo), learned with `@gaia/engine`. Training takes
 * minutes (12 on this shared machine), so the artifact is cached in the OS temp folder, keyed by the
 * data; the engine-sources hash it was built with is reported. `BENCH_RETRAIN=1` rebuilds it, and so
 * does a cached artifact the current engine cannot load.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HybridIndex, deserializeModel, serializeModel, trainAgentModel, type ParallelPair } from '@gaia/engine';
import { decodeAgentArtifacts, encodeAgentArtifacts } from '@gaia/translation/data-access';

export const DATA_DIR = process.env['BENCH_DATA_DIR'] ?? '/work/shared/data/americasnlp2021/es-gn';

export function readPairs(split: 'train' | 'dev'): ParallelPair[] {
  const es = readFileSync(join(DATA_DIR, `${split}.es`), 'utf8').split('\n');
  const gn = readFileSync(join(DATA_DIR, `${split}.gn`), 'utf8').split('\n');
  return es.map((source, i) => ({ id: `${split}-${i}`, source: source.trim(), target: (gn[i] ?? '').trim() })).filter((p) => p.source && p.target);
}

function engineHash(): string {
  const dir = join(__dirname, '../../libs/engine/src/lib');
  const h = createHash('sha256');
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
    .sort())
    h.update(f).update(readFileSync(join(dir, f)));
  return h.digest('hex').slice(0, 12);
}

/** Encoded artifact (model + index) of the 26k-pair agent, built once per engine version. */
export function esGnArtifact(log: (m: string) => void = () => undefined): {
  bytes: Uint8Array;
  pairs: number;
  buildMs: number | null;
  cachePath: string;
  engineHash: string;
  builtWithEngineHash: string;
} {
  const pairs = readPairs('train');
  const dir = join(tmpdir(), 'gaia-bench-cache');
  mkdirSync(dir, { recursive: true });
  const current = engineHash();
  const cachePath = join(dir, `es-gn-${pairs.length}-${statSync(join(DATA_DIR, 'train.gn')).size}.bin`);
  if (existsSync(cachePath) && process.env['BENCH_RETRAIN'] !== '1') {
    const bytes = new Uint8Array(readFileSync(cachePath));
    try {
      const a = decodeAgentArtifacts(bytes);
      deserializeModel(a.model);
      HybridIndex.deserialize(a.index);
      const meta = existsSync(`${cachePath}.json`) ? JSON.parse(readFileSync(`${cachePath}.json`, 'utf8')) : {};
      return { bytes, pairs: pairs.length, buildMs: null, cachePath, engineHash: current, builtWithEngineHash: meta.engineHash ?? 'unknown' };
    } catch (e) {
      log(`cached artifact unusable (${(e as Error).message}); retraining`);
    }
  }
  log(`training the ${pairs.length}-pair agent (cached afterwards in ${cachePath})`);
  const t0 = performance.now();
  const model = trainAgentModel(pairs);
  const index = new HybridIndex();
  index.add(pairs);
  const bytes = encodeAgentArtifacts({ model: serializeModel(model), index: index.serialize() });
  const buildMs = performance.now() - t0;
  writeFileSync(`${cachePath}.tmp`, bytes);
  renameSync(`${cachePath}.tmp`, cachePath);
  writeFileSync(`${cachePath}.json`, JSON.stringify({ engineHash: current, buildMs, pairs: pairs.length }));
  return { bytes, pairs: pairs.length, buildMs, cachePath, engineHash: current, builtWithEngineHash: current };
}
