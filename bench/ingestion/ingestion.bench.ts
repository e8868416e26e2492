/**
 * Ingestion benchmark: pairs per second through parsing + storing (the real IngestionModule on the real
 * Postgres, outbox + job) + indexing (engine HybridIndex) + core memory (engine trainAgentModel), and the
 * time until a 100k-pair JSON upload is a ready agent.
 *
 *   npx jest -c bench/ingestion/jest.config.js      (writes bench/results/ingestion.json)
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { HybridIndex, trainAgentModel } from '@gaia/engine';
import { ingestionUploadKey } from '@gaia/contracts';
import { ingestionSchema, IngestionModule } from '@gaia/ingestion/feature';
import { parseFile } from '@gaia/ingestion/parsers';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { createTestApp } from '@gaia/testing';

const N = Number(process.env['BENCH_PAIRS'] ?? 100_000);
const WORDS = 'ñande ore che nde ha pe upe ko jagua óga y ka’aguy mitã kuña karai tembi’u porã tuicha michĩ opa mba’e heta'.split(' ');
const ES = 'el la los las de en y que casa perro agua bosque niño mujer señor comida bueno grande pequeño todo cosa mucho'.split(' ');

function corpus(n: number): Array<{ source: string; target: string }> {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  return Array.from({ length: n }, (_, i) => {
    const len = 4 + Math.floor(rnd() * 10);
    const ids = Array.from({ length: len }, () => Math.floor(rnd() * ES.length));
    return { source: `${ids.map((k) => ES[k]).join(' ')} ${i}`, target: `${ids.map((k) => WORDS[k % WORDS.length]).join(' ')} ${i}` };
  });
}

jest.setTimeout(600_000);

it(`ingestion benchmark (${N} pairs)`, async () => {
  const pairs = corpus(N);
  const bytes = new TextEncoder().encode(JSON.stringify(pairs));

  const p0 = performance.now();
  const parsed = await parseFile({ filename: 'bench.json', bytes, srcLang: 'es', tgtLang: 'gn' });
  const parseMs = performance.now() - p0;
  expect(parsed.pairs.length).toBe(N);

  const t = await createTestApp({ schemas: [ingestionSchema], consumers: ['ingestion'], imports: [IngestionModule] });
  try {
    const rpc = t.app.get<RpcClient>(RPC_CLIENT);
    const storage = t.app.get<FileStorage>(FILE_STORAGE);
    const start = performance.now();
    const key = ingestionUploadKey('bench', 0);
    await storage.put(key, bytes);
    const res = await rpc.call('ingestion.start-processing.v1', { mode: 'create', ownerId: 'bench', srcLang: 'es', tgtLang: 'gn', files: [{ key, filename: 'bench.json', size: bytes.length }] });
    const ackMs = performance.now() - start;
    await t.drain(600_000);
    const storedMs = performance.now() - start;
    const { task } = await rpc.call('ingestion.get-task.v1', { taskId: res.task_id });
    expect(task.status).toBe('COMPLETED');
    const [{ key: pairsKey }] = await t.dataSource.query(`SELECT payload->>'pairsKey' AS key FROM outbox_event WHERE topic = 'ingestion.pairs-stored.v1'`);
    const stored = new TextDecoder().decode(await storage.get(pairsKey)).trim().split('\n').map((l) => JSON.parse(l) as { id: string; source: string; target: string });
    expect(stored.length).toBe(N);

    const i0 = performance.now();
    const index = new HybridIndex();
    index.add(stored);
    const indexMs = performance.now() - i0;
    const m0 = performance.now();
    trainAgentModel(stored);
    const memoryMs = performance.now() - m0;
    const readyMs = storedMs + indexMs + memoryMs;

    const result = {
      benchmark: 'ingestion',
      date: new Date().toISOString(),
      machine: { cpus: cpus().length, model: cpus()[0]?.model, memGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
      pairs: N,
      jsonBytes: bytes.length,
      parseOnly: { ms: Math.round(parseMs), pairsPerSec: Math.round(N / (parseMs / 1000)) },
      ackMs: Math.round(ackMs),
      parseAndStore: { ms: Math.round(storedMs), pairsPerSec: Math.round(N / (storedMs / 1000)) },
      indexing: { ms: Math.round(indexMs), pairsPerSec: Math.round(N / (indexMs / 1000)) },
      coreMemory: { ms: Math.round(memoryMs), pairsPerSec: Math.round(N / (memoryMs / 1000)) },
      endToEnd: { ms: Math.round(readyMs), pairsPerSec: Math.round(N / (readyMs / 1000)), targetMs: 60_000, withinTarget: readyMs <= 60_000 },
    };
    mkdirSync(join(__dirname, '../results'), { recursive: true });
    writeFileSync(join(__dirname, '../results/ingestion.json'), JSON.stringify(result, null, 2) + '\n');
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await t.close();
  }
});
