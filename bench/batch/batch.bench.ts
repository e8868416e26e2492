/**
 * What POST /api/translate/batch saves at the edge: 100 texts as one batch vs 100 POST /api/translate calls
 * (one after the other, and 4 at a time), all through @gaia/client against the platform composition on the
 * real Postgres (auth, access check, billing authorization and usage per text). The translation service is
 * the RPC stand-in of the API tests (no engine time), so the numbers are the per-request overhead only.
 * The three ways run interleaved in the same rounds; medians and ratios come from the same run.
 *
 *   npx jest -c bench/batch/jest.config.js      (writes bench/results/batch.json)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { benchMachine } from '../machine.cjs';
import { join } from 'node:path';
import { GaiaClient } from '@gaia/client';
import { RPC_CLIENT, type RpcClient } from '@gaia/shared/messaging';
// The API tier's platform composition and translation stand-in, as the e2e tests use them.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { signUp, startApi } from '../../tests/api/support/api-app';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { TranslationStandInModule } from '../../tests/api/fixtures/translation-stand-in';
import { CreateAgentUseCase } from '@gaia/agents/feature';

const TEXTS = 100;
const ROUNDS = Number(process.env['BENCH_BATCH_ROUNDS'] ?? 5);
const PARALLEL = 4;

jest.setTimeout(3_600_000);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round2 = (x: number) => Math.round(x * 100) / 100;

it('100 texts: one batch vs 100 single calls (sequential and 4 at a time)', async () => {
  // A key limit above the run's 1,600 calls (default 1,000 a day).
  const t = await startApi({ without: ['TranslationModule'], imports: [TranslationStandInModule], gateway: { identity: { defaultKeyRateLimit: 100_000 } } });
  try {
    const u = await signUp(t.url, 'bench');
    const rpc = t.app.get<RpcClient>(RPC_CLIENT);
    await rpc.call('billing.set-plan.v1', { userId: u.uid, plan: 'enterprise' });
    const agentId = (
      await t.app.get(CreateAgentUseCase, { strict: false }).execute({
        coreMemory: '',
        processingTaskId: null,
        filenames: [],
        engine: 'builtin',
        ownerId: u.uid,
        ownerEmail: u.email,
        srcLang: 'es',
        tgtLang: 'qu',
        customPrompt: 'bench',
        public: true,
      })
    ).id;
    const key = (await u.agent.post('/api/api-keys/create/').set('X-CSRF-Token', u.csrf).send({ name: 'bench' }).expect(200)).body.api_key as string;
    const gaia = new GaiaClient({ baseUrl: t.url, apiKey: key });
    const texts = Array.from({ length: TEXTS }, (_, i) => `texto número ${i}`);
    const req = { model_id: agentId, src_lang: 'es', tgt_lang: 'qu' };
    const ways: Record<string, () => Promise<number>> = {
      batch: async () => {
        const r = await gaia.translateBatch({ ...req, texts });
        if (r.failed) throw new Error(JSON.stringify(r.results.find((x) => !x.ok)));
        return r.succeeded;
      },
      sequential: async () => {
        let ok = 0;
        for (const text of texts) {
          const r = await gaia.translate({ ...req, text });
          if (r.success) ok++;
        }
        return ok;
      },
      parallel4: async () => {
        let next = 0;
        let ok = 0;
        await Promise.all(
          Array.from({ length: PARALLEL }, async () => {
            while (next < texts.length) {
              const text = texts[next++];
              const r = await gaia.translate({ ...req, text });
              if (r.success) ok++;
            }
          }),
        );
        return ok;
      },
    };
    await ways['batch'](); // warm-up (connections, JIT, agent lookups)
    const ms: Record<string, number[]> = { batch: [], sequential: [], parallel4: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, run] of Object.entries(ways)) {
        const start = performance.now();
        expect(await run()).toBe(TEXTS);
        ms[name].push(performance.now() - start);
      }
    }
    const med = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, round2(median(v))]));
    const result = {
      benchmark: '100 texts: POST /api/translate/batch vs 100 POST /api/translate (through @gaia/client, platform composition, translation stand-in)',
      date: new Date().toISOString(),
      machine: benchMachine(),
      rounds: ROUNDS,
      texts: TEXTS,
      medianMsFor100Texts: med,
      ratios: { sequentialOverBatch: round2(med['sequential'] / med['batch']), parallel4OverBatch: round2(med['parallel4'] / med['batch']) },
      allMs: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, v.map(round2)])),
    };
    mkdirSync(join(__dirname, '../results'), { recursive: true });
    writeFileSync(join(__dirname, '../results/batch.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result.medianMsFor100Texts), JSON.stringify(result.ratios));
  } finally {
    await t.close();
  }
});
