import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import { syntheticCorpus, type TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';

const enc = (s: string) => new TextEncoder().encode(s);
const PAIRS = syntheticCorpus(40, 17);
/** An OPUS Moses release archive: `<corpus>.<src>-<tgt>.<lang>` halves plus README and LICENSE. */
const ZIP = zipSync({
  'Tiny.es-xx.es': enc(PAIRS.map((p) => p.source).join('\n') + '\n'),
  'Tiny.es-xx.xx': enc(PAIRS.map((p) => p.target).join('\n') + '\n'),
  README: enc('test release\n'),
  LICENSE: enc('CC BY 4.0\n'),
});

/** Builder "Find public data": the HTTP edge of public corpora discovery, on a catalogue speaking the OPUS API. */
describe('public corpora through the API (Builder "Find public data")', () => {
  let t: TestApp & { url: string };
  let server: Server;
  let base = '';
  let ana: User;
  let ben: User;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/opusapi/') {
        const moses = url.searchParams.get('preprocessing') === 'moses' && url.searchParams.get('source') === 'es' && url.searchParams.get('target') === 'xx';
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            corpora: moses
              ? [
                  {
                    alignment_pairs: PAIRS.length,
                    corpus: 'Tiny',
                    documents: '',
                    id: 1,
                    latest: 'True',
                    preprocessing: 'moses',
                    size: 4,
                    source: 'es',
                    target: 'xx',
                    url: `${base}/download/Tiny/v1/moses/es-xx.txt.zip`,
                    version: 'v1',
                    license: 'CC BY 4.0',
                  },
                ]
              : [],
          }),
        );
      }
      if (url.pathname === '/download/Tiny/v1/moses/es-xx.txt.zip') {
        res.writeHead(200, { 'content-type': 'application/zip' });
        return res.end(Buffer.from(ZIP));
      }
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await startApi({
      env: { PUBLIC_CORPORA_URL: `${base}/opusapi/` },
      ensure: [{ module: IngestionModule, schema: ingestionSchema }],
      gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] },
    });
    ana = await signUp(t.url, 'ana');
    ben = await signUp(t.url, 'ben');
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => server.close(r));
  });

  it('lists corpora of a pair and imports one into a new agent of the caller, license in its description; not into another owner’s agent', async () => {
    const list = await ana.agent.get('/api/corpora?src_lang=es&tgt_lang=xx').expect(200);
    expect(list.body).toEqual({ corpora: [{ name: 'Tiny', version: 'v1', pairs: PAIRS.length, size_bytes: 4096, license: 'CC BY 4.0', format: 'moses' }] });
    await ana.agent.get('/api/corpora?src_lang=es').expect(400);

    const started = await ana.agent
      .post('/api/corpora/import')
      .set('X-CSRF-Token', ana.csrf)
      .send({ src_lang: 'es', tgt_lang: 'xx', corpus: 'Tiny' })
      .expect(200);
    await t.drain();
    const agent = (await ana.agent.get(`/api/agents/${started.body.model_id}`).expect(200)).body;
    expect(agent).toMatchObject({
      uid: ana.uid,
      processing_status: 'COMPLETED',
      public: false,
      custom_prompt: `Public data: Tiny v1 (${PAIRS.length} pairs), license: CC BY 4.0.`,
    });
    expect(agent.pair_count).toBe(new Set(PAIRS.map((p) => `${p.source}\t${p.target}`)).size);

    const refused = await ben.agent
      .post('/api/corpora/import')
      .set('X-CSRF-Token', ben.csrf)
      .send({ src_lang: 'es', tgt_lang: 'xx', corpus: 'Tiny', model_id: started.body.model_id })
      .expect(404);
    expect(refused.body.error).toBe('Model not found.');
    await ana.agent.post('/api/corpora/import').set('X-CSRF-Token', ana.csrf).send({ src_lang: 'es', tgt_lang: 'xx', corpus: 'Nope' }).expect(404);
  });
});
