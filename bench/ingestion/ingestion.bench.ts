/**
 * Ingestion benchmark: time until an N-pair JSON upload (default 100,000) is a ready agent, through
 * the real services in one process on the real Postgres: ingestion (store original → parse → normalise
 * → de-duplicate → store pairs, durable job + outbox) then retrieval (index + learn the core memory,
 * `retrieval.agent-learned.v1`) until the task is COMPLETED. Also: parsing alone, and per-stage times.
 *
 *   BENCH_PAIRS=100000 npx jest -c bench/ingestion/jest.config.js     (writes bench/results/ingestion.json)
 */
import { Injectable } from '@nestjs/common';
import { writeFileSync, mkdirSync } from 'node:fs';
import { benchMachine } from '../machine.cjs';
import { join } from 'node:path';
import { ingestionUploadKey } from '@gaia/contracts';
import { ingestionSchema, IngestionModule } from '@gaia/ingestion/feature';
import { parseFile } from '@gaia/ingestion/parsers';
import { retrievalSchema, useLearnWorker } from '@gaia/retrieval/data-access';
import { RetrievalModule } from '@gaia/retrieval/feature';
import { OnEvent, RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import { createTestApp } from '@gaia/testing';

const N = Number(process.env['BENCH_PAIRS'] ?? 100_000);
/** The built learning worker (node tools/build.mjs --backend): learn in worker threads as the compiled services do. */
const LEARN_WORKER = process.env['GAIA_LEARN_WORKER'] ?? null;
/** BENCH_STAGES=ingestion: stop when the pairs are stored and handed over (a stub acknowledges pairs-stored). */
const INGESTION_ONLY = process.env['BENCH_STAGES'] === 'ingestion';
const GN = 'ñande ore che nde ha pe upe ko jagua óga y ka’aguy mitã kuña karai tembi’u porã tuicha michĩ opa mba’e heta'.split(' ');
const ES = 'el la los las de en y que casa perro agua bosque niño mujer señor comida bueno grande pequeño todo cosa mucho'.split(' ');

function corpus(n: number): Array<{ source: string; target: string }> {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  return Array.from({ length: n }, (_, i) => {
    const len = 4 + Math.floor(rnd() * 10);
    const ids = Array.from({ length: len }, () => Math.floor(rnd() * ES.length));
    return { source: `${ids.map((k) => ES[k]).join(' ')} ${i}`, target: `${ids.map((k) => GN[k % GN.length]).join(' ')} ${i}` };
  });
}

/** Acknowledges the events of the services not running here (agents, gateway). */
@Injectable()
class OtherConsumers {
  @OnEvent('agents', 'ingestion.task-started.v1') a(): void {}
  @OnEvent('gateway', 'ingestion.task-progress.v1') c(): void {}
  @OnEvent('agents', 'ingestion.task-finished.v1') d(): void {}
  @OnEvent('gateway', 'ingestion.task-finished.v1') e(): void {}
  @OnEvent('agents', 'retrieval.agent-learned.v1') f(): void {}
  @OnEvent('agents', 'retrieval.build-failed.v1') g(): void {}
  @OnEvent('agents', 'retrieval.agent-quality-measured.v1') h(): void {}
}

@Injectable()
class RetrievalStub {
  @OnEvent('retrieval', 'ingestion.pairs-stored.v1') stored(): void {}
}

jest.setTimeout(1_800_000);

it(`ingestion benchmark (${N} pairs)`, async () => {
  useLearnWorker(LEARN_WORKER);
  const pairs = corpus(N);
  const bytes = new TextEncoder().encode(JSON.stringify(pairs));

  const p0 = performance.now();
  const parsed = await parseFile({ filename: 'bench.json', bytes, srcLang: 'es', tgtLang: 'gn' });
  const parseMs = performance.now() - p0;
  expect(parsed.pairs.length).toBe(N);

  const t = await createTestApp({
    schemas: [ingestionSchema, retrievalSchema],
    consumers: ['ingestion', 'retrieval', 'agents', 'gateway'],
    imports: INGESTION_ONLY ? [IngestionModule] : [IngestionModule, RetrievalModule],
    providers: INGESTION_ONLY ? [OtherConsumers, RetrievalStub] : [OtherConsumers],
  });
  try {
    const rpc = t.app.get<RpcClient>(RPC_CLIENT);
    const storage = t.app.get<FileStorage>(FILE_STORAGE);
    const start = performance.now();
    const startedAt = Date.now();
    const key = ingestionUploadKey('bench', 0);
    await storage.put(key, bytes);
    const res = await rpc.call('ingestion.start-processing.v1', {
      mode: 'create',
      ownerId: 'bench',
      srcLang: 'es',
      tgtLang: 'gn',
      files: [{ key, filename: 'bench.json', size: bytes.length }],
    });
    const ackMs = performance.now() - start;
    await t.drain(1_800_000);
    const { task } = await rpc.call('ingestion.get-task.v1', { taskId: res.task_id });
    if (INGESTION_ONLY) expect(task).toMatchObject({ status: 'PROCESSING', progress: 70 });
    else expect(task).toMatchObject({ status: 'COMPLETED', message: 'Processed 1 of 1 files successfully!' });
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM ingestion_pair WHERE agent_id = $1`, [res.model_id]);
    expect(n).toBe(N);
    // Stage boundaries from the task's progress events (committed with each state change).
    const stamps: Array<{ progress: number; message: string; at: string }> = await t.dataSource.query(
      `SELECT (payload->'task'->>'progress')::int AS progress, payload->'task'->>'message' AS message, created_at AS at FROM outbox_event WHERE topic = 'ingestion.task-progress.v1' ORDER BY seq`,
    );
    const t0 = new Date(stamps[0].at).getTime();
    // Stored = the pairs snapshot is written and pairs-stored published ('… learning the agent…').
    const storedAt = new Date(stamps.find((s) => /learning the agent/.test(s.message))!.at).getTime();
    const storeMs = storedAt - t0;
    const insertedMs = new Date(stamps.find((s) => s.message.startsWith('Processed bench.json'))!.at).getTime() - t0;
    const readyAt = new Date(stamps[stamps.length - 1].at).getTime();
    const learnMs = readyAt - storedAt;
    // The quality report follows the ready agent in the same job (docs/adr/0006): retrieval.agent-quality-measured.v1.
    const [reported] = await t.dataSource.query(
      `SELECT created_at AS at, payload->'quality' AS quality FROM outbox_event WHERE topic = 'retrieval.agent-quality-measured.v1' ORDER BY seq DESC LIMIT 1`,
    );
    // Ready = the task COMPLETED (its last progress event), on the wall clock of this process.
    const readyMs = readyAt - startedAt;

    const result = {
      benchmark: INGESTION_ONLY ? 'ingestion (parse + store + hand-over only)' : 'ingestion (upload to ready agent, with retrieval learning)',
      date: new Date().toISOString(),
      learning: LEARN_WORKER ? 'worker threads (built learn.worker.js)' : 'inline on the main thread',
      machine: benchMachine(),
      pairs: N,
      jsonBytes: bytes.length,
      parseOnly: { ms: Math.round(parseMs), pairsPerSec: Math.round(N / (parseMs / 1000)) },
      ackMs: Math.round(ackMs),
      parseAndStore: {
        ms: storeMs,
        pairsPerSec: Math.round(N / (storeMs / 1000)),
        parsedAndInsertedMs: insertedMs,
        snapshotAndHandOverMs: storeMs - insertedMs,
      },
      ...(INGESTION_ONLY
        ? {}
        : {
            indexAndCoreMemory: { ms: learnMs, pairsPerSec: Math.round(N / (learnMs / 1000)) },
            uploadToReadyAgent: { ms: Math.round(readyMs), pairsPerSec: Math.round(N / (readyMs / 1000)), targetMs: 60_000, withinTarget: readyMs <= 60_000 },
            qualityReportAfterReady: reported
              ? {
                  ms: new Date(reported.at).getTime() - readyAt,
                  heldOut: reported.quality.heldOut,
                  evaluationMs: reported.quality.evaluationMs,
                  chrf: reported.quality.scores?.chrf ?? null,
                }
              : null,
          }),
    };
    mkdirSync(join(__dirname, '../results'), { recursive: true });
    writeFileSync(
      join(__dirname, '../results', `ingestion${INGESTION_ONLY ? '-store' : ''}${N === 100_000 ? '' : `-${N}`}.json`),
      JSON.stringify(result, null, 2) + '\n',
    );
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await t.close();
  }
});
