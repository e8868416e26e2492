import request from 'supertest';
import { unzipSync } from 'fflate';
import type { TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { learnedAgent } from './support/feedback-agent';

/**
 * What owners' feedback (corrections, glossary) shows to people who are not the agent's owner or editors: the
 * dataset of a public agent is downloadable by anyone, so it carries the corrections' texts but never who wrote
 * them (no author email, no uid).
 */
describe('feedback privacy: public projections of corrections and the glossary', () => {
  let t: TestApp & { url: string };
  let owner: User;
  let agentId: string;

  const downloadAsAnonymous = async (): Promise<Record<string, Uint8Array>> => {
    const zip = await request(t.url)
      .get(`/api/models/download?model_id=${agentId}`)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    return unzipSync(new Uint8Array(zip.body as Buffer));
  };

  beforeAll(async () => {
    t = await startApi({ gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] } });
    owner = await signUp(t.url, 'privacy-owner');
    agentId = await learnedAgent(t, owner);
  });
  afterAll(() => t?.close());

  it("a public agent's dataset download (anyone) holds the corrections without their authors' emails or uids", async () => {
    await owner.agent
      .post(`/api/agents/${agentId}/corrections`)
      .set('X-CSRF-Token', owner.csrf)
      .send({ source: 'la luna', translation: 'killa', corrected: 'mama killa' })
      .expect(201);
    await owner.agent.post(`/api/agents/${agentId}/visibility`).set('X-CSRF-Token', owner.csrf).send({ public: true }).expect(200);

    const files = await downloadAsAnonymous();
    const corrections = new TextDecoder()
      .decode(files['corrections.jsonl'])
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(corrections).toEqual([{ source: 'la luna', translation: 'killa', corrected: 'mama killa', created_at: expect.any(String) }]);
    const everything = Object.values(files)
      .map((bytes) => new TextDecoder().decode(bytes))
      .join('\n')
      .toLowerCase();
    expect(everything).not.toContain(owner.email.toLowerCase());
    expect(everything).not.toContain(owner.uid.toLowerCase());
  });
});
