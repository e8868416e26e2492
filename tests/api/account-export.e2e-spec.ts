import { unzipSync } from 'fflate';
import request from 'supertest';
import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import { syntheticCorpus, type TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { uploadDocuments } from './support/documents';

const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};
const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** The privacy promise of export: everything the account owns as one zip, from Account (session) and the API (key). */
describe('account export', () => {
  let t: TestApp & { url: string };
  let ana: User;
  let ben: User;
  const corpus = syntheticCorpus(40, 9);

  beforeAll(async () => {
    t = await startApi({ ensure: [{ module: IngestionModule, schema: ingestionSchema }], gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] } });
    ana = await signUp(t.url, 'ana');
    ben = await signUp(t.url, 'ben');
  });
  afterAll(() => t?.close());

  it("zips the account's profile, agents with settings and pairs, keys' metadata with usage, usage; nothing of others; no secret", async () => {
    const upload = (u: User, name: string) =>
      uploadDocuments(u, { src_lang: 'es', tgt_lang: 'xx', custom_prompt: `${name} agent`, core_memory: `${name} private notes` }, [
        { name: `${name}.tsv`, data: corpus.map((p) => `${p.source}\t${p.target}`).join('\n') },
      ])
        .expect(200)
        .then((r) => r.body.model_id as string);
    const agentId = await upload(ana, 'ana');
    const benAgent = await upload(ben, 'ben');
    await t.drain();
    const key = (await ana.agent.post('/api/api-keys/create/').set('X-CSRF-Token', ana.csrf).send({ name: 'exporter' }).expect(200)).body.api_key as string;
    await request(t.url)
      .post('/api/translate/')
      .set('X-API-Key', key)
      .send({ text: corpus[0].source, model_id: agentId, src_lang: 'es', tgt_lang: 'xx', stream: false })
      .expect(200);
    await t.drain();

    const res = await ana.agent.get('/api/account/export').buffer(true).parse(binary).expect(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const zip = unzipSync(new Uint8Array(res.body as Buffer));
    const names = Object.keys(zip).sort();
    expect(names).toEqual(expect.arrayContaining(['README.txt', 'account.json', 'usage.json', 'api-keys.json', 'team.json', `agents/${agentId}/agent.json`]));
    expect(names.some((n) => n.startsWith(`agents/${agentId}/dataset/`) && n.endsWith('.jsonl'))).toBe(true);
    expect(names.some((n) => n.includes(benAgent))).toBe(false);

    expect(JSON.parse(text(zip['account.json']))).toMatchObject({ uid: ana.uid, email: ana.email, plan: { id: 'free' } });
    expect(JSON.parse(text(zip[`agents/${agentId}/agent.json`]))).toMatchObject({
      id: agentId,
      custom_prompt: 'ana agent',
      core_memory: 'ana private notes',
      src_lang: 'es',
      tgt_lang: 'xx',
    });
    const pairsFile = names.find((n) => n.startsWith(`agents/${agentId}/dataset/`) && n.endsWith('.jsonl'))!;
    expect(text(zip[pairsFile])).toContain(corpus[0].target);
    const keys = JSON.parse(text(zip['api-keys.json']));
    expect(keys).toEqual([
      expect.objectContaining({
        name: 'exporter',
        prefix: key.slice('gaia_'.length, 'gaia_'.length + 12),
        revoked: false,
        usage: expect.objectContaining({ total_requests: 1 }),
      }),
    ]);
    expect(JSON.parse(text(zip['usage.json']))).toMatchObject({ total_requests: 1 });
    // Secrets never leave: not the key, not a hash.
    const all = Object.values(zip).map(text).join('\n');
    expect(all).not.toContain(key);
    // gaia_<prefix>_<secret>; the secret itself may contain '_'.
    expect(all).not.toContain(key.slice('gaia_'.length + 13));
    expect(all).not.toContain(ben.email);

    // The API: the same export with the account's key.
    const viaKey = await request(t.url).get('/api/account/export').set('X-API-Key', key).buffer(true).parse(binary).expect(200);
    expect(Object.keys(unzipSync(new Uint8Array(viaKey.body as Buffer))).sort()).toEqual(names);
    await request(t.url).get('/api/account/export').expect(401);
  });
});
