import request from 'supertest';
import type { TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { createAgent } from './support/agents';

/** Cursor pagination of lists: `limit` + `cursor` in, `next_cursor` out (null on the last page), the spec's shape kept. */
describe('cursor pagination', () => {
  let t: TestApp & { url: string };
  let owner: User;
  const publicIds: string[] = [];
  beforeAll(async () => {
    t = await startApi({ gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] } });
    owner = await signUp(t.url, 'pages');
    for (let i = 0; i < 5; i++)
      publicIds.push(
        (await createAgent(t.app, { ownerId: owner.uid, ownerEmail: owner.email, srcLang: 'es', tgtLang: 'qu', customPrompt: `p${i}`, public: true })).id,
      );
    await createAgent(t.app, { ownerId: owner.uid, ownerEmail: owner.email, srcLang: 'es', tgtLang: 'qu', customPrompt: 'private', public: false });
  });
  afterAll(() => t?.close());

  it('pages through the public agent list, newest first, each agent once, private ones never', async () => {
    const all = (await request(t.url).get('/api/agents/public').expect(200)).body as { agents: Array<{ id: string }>; next_cursor: string | null };
    expect(all.next_cursor).toBeNull();
    expect(all.agents.map((a) => a.id).sort()).toEqual([...publicIds].sort());
    const created = all.agents.map((a) => Date.parse((a as unknown as { created_at: string }).created_at));
    expect(created).toEqual([...created].sort((x, y) => y - x));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: request.Response = await request(t.url)
        .get('/api/agents/public')
        .query({ limit: 2, ...(cursor ? { cursor } : {}) })
        .expect(200);
      expect(res.body.agents.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.agents.map((a: { id: string }) => a.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.agents.map((a) => a.id));
  });

  it('refuses a bad limit or cursor with a 400 naming it', async () => {
    expect((await request(t.url).get('/api/agents/public?limit=0').expect(400)).body.error).toMatch(/^limit/);
    expect((await request(t.url).get('/api/agents/public?limit=1000').expect(400)).body.error).toMatch(/^limit/);
    expect((await request(t.url).get('/api/agents/public?cursor=not-a-cursor').expect(400)).body.error).toMatch(/^cursor/);
  });

  it("pages through the owner's agents and those shared with them (one newest-first sequence split into owned and shared)", async () => {
    const other = await signUp(t.url, 'sharer');
    const shared = await createAgent(t.app, {
      ownerId: other.uid,
      ownerEmail: other.email,
      srcLang: 'es',
      tgtLang: 'qu',
      customPrompt: 'shared',
      public: false,
    });
    await t.dataSource.query(`UPDATE agent SET shared_with_emails = ARRAY[$2] WHERE id = $1`, [shared.id, owner.email.toLowerCase()]);
    const all = (await owner.agent.get('/api/agents/mine').expect(200)).body;
    expect(all.next_cursor).toBeNull();
    expect(all.owned).toHaveLength(6);
    expect(all.shared.map((a: { id: string }) => a.id)).toEqual([shared.id]);
    const owned: string[] = [];
    const sharedSeen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: request.Response = await owner.agent
        .get('/api/agents/mine')
        .query({ limit: 3, ...(cursor ? { cursor } : {}) })
        .expect(200);
      expect(res.body.owned.length + res.body.shared.length).toBeLessThanOrEqual(3);
      owned.push(...res.body.owned.map((a: { id: string }) => a.id));
      sharedSeen.push(...res.body.shared.map((a: { id: string }) => a.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(owned).toEqual(all.owned.map((a: { id: string }) => a.id));
    expect(sharedSeen).toEqual([shared.id]);
  });

  it("pages through the owner's API keys, newest first", async () => {
    for (const name of ['a', 'b', 'c']) await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).send({ name }).expect(200);
    const first = (await owner.agent.get('/api/api-keys/list/?limit=2').expect(200)).body;
    expect(first).toEqual({
      success: true,
      api_keys: [expect.objectContaining({ name: 'c' }), expect.objectContaining({ name: 'b' })],
      next_cursor: expect.any(String),
    });
    const second = (await owner.agent.get('/api/api-keys/list/').query({ limit: 2, cursor: first.next_cursor }).expect(200)).body;
    expect(second).toEqual({ success: true, api_keys: [expect.objectContaining({ name: 'a' })], next_cursor: null });
    expect((await owner.agent.get('/api/api-keys/list/').expect(200)).body.api_keys.map((k: { name: string }) => k.name)).toEqual(['c', 'b', 'a']);
  });
});
