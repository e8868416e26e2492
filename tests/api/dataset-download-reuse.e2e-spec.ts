import request from 'supertest';
import { DEFAULT_GATEWAY_OPTIONS } from '@gaia/gateway/feature';
import { FILE_STORAGE, type FileStorage } from '@gaia/shared/storage';
import type { TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { learnedAgent } from './support/feedback-agent';

/** The whole body of a download, as bytes. */
const bytesOf = (r: request.Test) =>
  r.buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });

/**
 * The dataset of a public agent is anyone's download (anonymous included), and building it reads every original and
 * compresses it: the zip is prepared once per dataset version and served again from storage, and each client (IP when
 * anonymous, account when signed in) has a number of downloads per window, past which it gets 429 with Retry-After.
 */
describe('dataset download: the prepared zip is reused, downloads are limited per client', () => {
  let t: TestApp & { url: string };
  let owner: User;
  let agentId: string;
  let zipPuts: string[] = [];

  beforeAll(async () => {
    t = await startApi({ gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] } });
    owner = await signUp(t.url, 'dataset-reuse-owner');
    agentId = await learnedAgent(t, owner);
    await owner.agent.post(`/api/agents/${agentId}/visibility`).set('X-CSRF-Token', owner.csrf).send({ public: true }).expect(200);
    // The real storage, observed: which zips get written.
    const storage = t.app.get<FileStorage>(FILE_STORAGE);
    const putStream = storage.putStream.bind(storage);
    jest.spyOn(storage, 'putStream').mockImplementation(async (key, chunks) => {
      if (key.endsWith('.zip')) zipPuts.push(key);
      return putStream(key, chunks);
    });
  });
  afterAll(() => t?.close());

  it('serves the same zip twice, byte for byte, building it once', async () => {
    zipPuts = [];
    const first = await bytesOf(owner.agent.get(`/api/models/download?model_id=${agentId}`)).expect(200);
    const second = await bytesOf(owner.agent.get(`/api/models/download?model_id=${agentId}`)).expect(200);
    expect((first.body as Buffer).subarray(0, 2).toString()).toBe('PK');
    expect(Buffer.compare(first.body as Buffer, second.body as Buffer)).toBe(0);
    expect(zipPuts).toHaveLength(1);
  });

  it('anonymous downloads past the per-IP limit get 429 with Retry-After; a signed-in account keeps its own allowance', async () => {
    const [anonymous] = DEFAULT_GATEWAY_OPTIONS.datasetDownloadsPerIp;
    const statuses: number[] = [];
    for (let i = 0; i < anonymous.limit; i++) statuses.push((await request(t.url).get(`/api/models/download?model_id=${agentId}`)).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await request(t.url).get(`/api/models/download?model_id=${agentId}`).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(anonymous.windowSeconds);
    expect(refused.body).toEqual({ error: expect.any(String) });

    await bytesOf(owner.agent.get(`/api/models/download?model_id=${agentId}`)).expect(200);
  });

  it('a signed-in account past its limit gets 429 with Retry-After', async () => {
    const [signedIn] = DEFAULT_GATEWAY_OPTIONS.datasetDownloadsPerAccount;
    const reader = await signUp(t.url, 'dataset-reuse-reader');
    for (let i = 0; i < signedIn.limit; i++) await reader.agent.get(`/api/models/download?model_id=${agentId}`).expect(200);
    const refused = await reader.agent.get(`/api/models/download?model_id=${agentId}`).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
