import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { zipSync } from 'fflate';
import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import { syntheticCorpus, type TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';

const enc = (s: string) => new TextEncoder().encode(s);
const PAIRS = syntheticCorpus(20, 5);
const ZIP = zipSync({ 'Fine.es-xx.es': enc(PAIRS.map((p) => p.source).join('\n') + '\n'), 'Fine.es-xx.xx': enc(PAIRS.map((p) => p.target).join('\n') + '\n') });

/**
 * The archive URL of a public corpus comes from the catalogue's answer, not from the operator: the import downloads
 * only from the catalogue's own origin (or OPUS's object store), never from an address the answer names elsewhere
 * (an internal service, the cloud metadata address) and never through a redirect to one (SSRF).
 */
describe('public corpora: archive downloads stay on allowed hosts', () => {
  let t: TestApp & { url: string };
  let catalogue: Server;
  let internal: Server;
  let base = '';
  let internalBase = '';
  const internalHits: string[] = [];
  let user: User;

  const entry = (corpus: string, url: string) => ({
    corpus,
    version: 'v1',
    alignment_pairs: PAIRS.length,
    size: 1,
    preprocessing: 'moses',
    url,
    license: 'CC0',
  });
  const importCorpus = (corpus: string) =>
    user.agent.post('/api/corpora/import').set('X-CSRF-Token', user.csrf).send({ src_lang: 'es', tgt_lang: 'xx', corpus });

  beforeAll(async () => {
    // A service inside the network the gateway must never be made to call.
    internal = createServer((req, res) => {
      internalHits.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'application/zip' });
      res.end(Buffer.from(ZIP));
    });
    await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
    internalBase = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;

    catalogue = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/opusapi/') {
        const moses = url.searchParams.get('preprocessing') === 'moses';
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify({
            corpora: moses
              ? [
                  entry('Fine', `${base}/download/fine.zip`),
                  entry('Inside', `${internalBase}/admin/export.zip`),
                  entry('Metadata', 'http://169.254.169.254/latest/meta-data/iam.zip'),
                  entry('Redirected', `${base}/download/moved.zip`),
                ]
              : [],
          }),
        );
      }
      if (url.pathname === '/download/fine.zip') {
        res.writeHead(200, { 'content-type': 'application/zip' });
        return res.end(Buffer.from(ZIP));
      }
      if (url.pathname === '/download/moved.zip') {
        res.writeHead(302, { location: `${internalBase}/admin/export.zip` });
        return res.end();
      }
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((r) => catalogue.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(catalogue.address() as AddressInfo).port}`;
    t = await startApi({
      env: { PUBLIC_CORPORA_URL: `${base}/opusapi/` },
      ensure: [{ module: IngestionModule, schema: ingestionSchema }],
    });
    user = await signUp(t.url, 'corpora-hosts');
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => catalogue.close(r));
    await new Promise((r) => internal.close(r));
  });

  it('lists only corpora whose archive is on an allowed host, and never imports from another address', async () => {
    const listed = (await user.agent.get('/api/corpora?src_lang=es&tgt_lang=xx').expect(200)).body.corpora.map((c: { name: string }) => c.name);
    expect(listed.sort()).toEqual(['Fine', 'Redirected']);
    expect((await importCorpus('Inside').expect(404)).body).toEqual({ error: 'No public corpus Inside for es-xx.' });
    expect((await importCorpus('Metadata').expect(404)).body).toEqual({ error: 'No public corpus Metadata for es-xx.' });
    expect(internalHits).toEqual([]);
  });

  it('refuses a download redirected to another host (502) without calling it, and imports from the catalogue host', async () => {
    expect((await importCorpus('Redirected').expect(502)).body).toEqual({ error: 'The corpus archive moved to a host that is not allowed.' });
    expect(internalHits).toEqual([]);
    await importCorpus('Fine').expect(200);
  });
});
