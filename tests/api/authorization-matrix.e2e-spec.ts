import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import { waitFor, type TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { SmtpInbox, inviteAndAccept, verifyEmail } from './support/smtp-inbox';
import { createAgent } from './support/agents';
import { uploadDocuments } from './support/documents';

type Role = 'anonymous' | 'revokedKey' | 'stranger' | 'editor' | 'owner';
/** Destructive successes run last: the owner after everyone else. */
const ROLES: Role[] = ['anonymous', 'revokedKey', 'stranger', 'editor', 'owner'];

interface Case {
  name: string;
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  path: () => string;
  body?: () => object;
  /** multipart fields instead of JSON. */
  form?: () => Record<string, string>;
  files?: () => Array<{ field: string; name: string; content: string }>;
  expect: Record<Role, number>;
  check?: (role: Role, res: request.Response) => void | Promise<void>;
}

const binary = (res: request.Response, done: (err: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

/** The owner's private notes (core_memory) of the public agent: never shown to anyone but owner and editors. */
const PRIVATE_NOTES = 'owner private notes: call Ana before publishing';
const PRIVATE_FIELDS = ['uid', 'sharedWithEmails', 'core_memory'];

const DATASET = JSON.stringify([
  { es: 'buenos días', qu: 'allin punchaw' },
  { es: 'gracias', qu: 'sulpayki' },
  { es: 'agua', qu: 'yaku' },
  { es: 'casa', qu: 'wasi' },
]);

/**
 * Every endpoint × {anonymous, owner, editor, stranger, revoked key}: no endpoint lets a stranger read or
 * change another user's agent, key, usage, team or profile. Real agents, billing, ingestion, identity and
 * translation (the owner's agent is learned from a tiny made-up corpus before the matrix runs).
 */
describe('authorization matrix', () => {
  let t: TestApp & { url: string };
  const users = {} as Record<'owner' | 'editor' | 'stranger', User>;
  let revokedKey: string;
  let liveKeyId: string;
  let agentId: string;
  let publicAgentId: string;
  let taskId: string;
  let memberId: string;
  let fileTaskId: string;
  let inbox: SmtpInbox;
  let correctionId: string;
  let termId: string;

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    t = await startApi({
      env: { SMTP_URL: inbox.url },
      ensure: [{ module: IngestionModule, schema: ingestionSchema }],
      gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] },
    });
    for (const r of ['owner', 'editor', 'stranger'] as const) users[r] = await signUp(t.url, r);
    const { owner, editor } = users;
    // The editor proves the address and accepts the mailed invitation (a pending one grants nothing).
    await verifyEmail(t.url, inbox, editor);
    memberId = await inviteAndAccept(t.url, inbox, owner, { ...editor, email: editor.email.toUpperCase() } as User);
    const up = await uploadDocuments(owner, { src_lang: 'ES', tgt_lang: 'qu', custom_prompt: 'Español → Quechua', core_memory: 'notes', uid: 'ignored' }, [
      { name: 'pares.json', data: DATASET },
    ]).expect(200);
    agentId = up.body.model_id;
    taskId = up.body.task_id;
    expect(up.body.total_files).toBe(1);
    // The agent is created by the agents service from ingestion.task-started.v1 (asynchronous event), then learned
    // from the upload; the real translation service translates with it once it is COMPLETED.
    await t.drain();
    const learned = await waitFor(
      () => owner.agent.get(`/api/agents/${agentId}`).then((r) => (r.status === 200 ? r.body.processing_status : null)),
      (s) => s === 'COMPLETED' || s === 'FAILED',
      { what: 'agent learned from the upload' },
    );
    expect(learned).toBe('COMPLETED');
    publicAgentId = (
      await createAgent(t.app, {
        ownerId: owner.uid,
        ownerEmail: owner.email,
        srcLang: 'es',
        tgtLang: 'gn',
        customPrompt: 'public',
        coreMemory: PRIVATE_NOTES,
        public: true,
      })
    ).id;
    const k1 = await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).send({ name: 'revoked' }).expect(200);
    revokedKey = k1.body.api_key;
    await owner.agent.post('/api/api-keys/revoke/').set('X-CSRF-Token', owner.csrf).send({ key_id: k1.body.key.key_id }).expect(200);
    // The owner's file translation: its progress and result are the owner's alone.
    fileTaskId = (
      await owner.agent
        .post('/api/translate/file')
        .set('X-CSRF-Token', owner.csrf)
        .field('model_id', agentId)
        .field('src_lang', 'es')
        .field('tgt_lang', 'qu')
        .attach('file', Buffer.from('buenos días\ngracias\n'), 'lines.txt')
        .expect(200)
    ).body.task_id;
    liveKeyId = (await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).send({ name: 'live' }).expect(200)).body.key.key_id;
    correctionId = (
      await owner.agent.post(`/api/agents/${agentId}/corrections`).set('X-CSRF-Token', owner.csrf).send({ source: 'agua', corrected: 'unu' }).expect(201)
    ).body.id;
    termId = (await owner.agent.post(`/api/agents/${agentId}/glossary`).set('X-CSRF-Token', owner.csrf).send({ term: 'agua', translation: 'yaku' }).expect(201))
      .body.id;
  });
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  const send = (role: Role, c: Case): request.Test => {
    const session = role === 'owner' || role === 'editor' || role === 'stranger' ? users[role] : null;
    const base = session ? session.agent : request(t.url);
    let req = base[c.method](c.path());
    if (session && c.method !== 'get') req = req.set('X-CSRF-Token', session.csrf);
    if (role === 'revokedKey') req = req.set('X-API-Key', revokedKey);
    if (c.form) {
      for (const [k, v] of Object.entries(c.form())) req = req.field(k, v);
      for (const f of c.files?.() ?? []) req = req.attach(f.field, Buffer.from(f.content), f.name);
      return req;
    }
    return c.body ? req.send(c.body()) : req;
  };

  const own = (role: Role) => (role === 'owner' || role === 'editor' || role === 'stranger' ? users[role] : null);
  const everyoneSignedIn = { anonymous: 401, revokedKey: 401, stranger: 200, editor: 200, owner: 200 };

  const cases: Case[] = [
    {
      name: 'GET /api/auth/me',
      method: 'get',
      path: () => '/api/auth/me',
      expect: everyoneSignedIn,
      check: (r, res) => expect(res.body.user.uid).toBe(own(r)!.uid),
    },
    {
      name: 'GET /api/account',
      method: 'get',
      path: () => '/api/account',
      expect: everyoneSignedIn,
      check: (r, res) => expect(res.body.uid).toBe(own(r)!.uid),
    },
    {
      name: 'PATCH /api/account',
      method: 'patch',
      path: () => '/api/account',
      body: () => ({ displayName: 'changed' }),
      expect: everyoneSignedIn,
      check: (r, res) => expect(res.body.uid).toBe(own(r)!.uid),
    },
    {
      name: 'GET /api/agents/public',
      method: 'get',
      path: () => '/api/agents/public',
      expect: { anonymous: 200, revokedKey: 200, stranger: 200, editor: 200, owner: 200 },
      check: (_r, res) => {
        const ids = res.body.agents.map((a: { id: string }) => a.id);
        expect(ids).toContain(publicAgentId);
        expect(ids).not.toContain(agentId);
        // The public list is the public projection for everyone (owners read theirs through /api/agents/mine).
        for (const a of res.body.agents) for (const f of PRIVATE_FIELDS) expect(a).not.toHaveProperty(f);
        expect(JSON.stringify(res.body)).not.toContain(PRIVATE_NOTES);
        expect(JSON.stringify(res.body)).not.toContain(users.owner.uid);
        expect(JSON.stringify(res.body).toLowerCase()).not.toContain(users.editor.email.toLowerCase());
      },
    },
    {
      name: 'GET /api/agents/mine',
      method: 'get',
      path: () => '/api/agents/mine',
      expect: everyoneSignedIn,
      check: (r, res) => {
        const owned = res.body.owned.map((a: { id: string }) => a.id);
        const shared = res.body.shared.map((a: { id: string }) => a.id);
        if (r === 'owner') expect(owned).toContain(agentId);
        if (r === 'editor') expect(shared).toContain(agentId);
        if (r === 'stranger') expect([...owned, ...shared]).not.toContain(agentId);
      },
    },
    {
      name: 'GET /api/agents/:id (private)',
      method: 'get',
      path: () => `/api/agents/${agentId}`,
      expect: { anonymous: 404, revokedKey: 404, stranger: 404, editor: 200, owner: 200 },
      check: (_r, res) => res.status === 404 && expect(res.body).toEqual({ error: 'Model not found.' }),
    },
    {
      name: 'GET /api/agents/:id (public)',
      method: 'get',
      path: () => `/api/agents/${publicAgentId}`,
      expect: { anonymous: 200, revokedKey: 200, stranger: 200, editor: 200, owner: 200 },
      check: (r, res) => {
        if (r === 'owner' || r === 'editor') {
          expect(res.body).toMatchObject({ uid: users.owner.uid, core_memory: PRIVATE_NOTES, sharedWithEmails: [users.editor.email.toLowerCase()] });
          return;
        }
        // Anonymous, key and stranger callers get the public projection: no emails, owner uid or private notes.
        for (const f of PRIVATE_FIELDS) expect(res.body).not.toHaveProperty(f);
        expect(res.body).toMatchObject({ id: publicAgentId, src_lang: 'es', tgt_lang: 'gn', custom_prompt: 'public', public: true });
      },
    },
    {
      name: 'PATCH /api/agents/:id',
      method: 'patch',
      path: () => `/api/agents/${agentId}`,
      body: () => ({ core_memory: 'edited' }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 200, owner: 200 },
    },
    {
      name: 'PATCH /api/agents/:id (public agent, not a member)',
      method: 'patch',
      path: () => `/api/agents/${publicAgentId}`,
      body: () => ({ core_memory: 'vandalised' }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 403, editor: 200, owner: 200 },
    },
    {
      name: 'POST /api/agents/:id/visibility',
      method: 'post',
      path: () => `/api/agents/${agentId}/visibility`,
      body: () => ({ public: false }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 403, owner: 200 },
    },
    {
      name: 'GET /api/documents/status',
      method: 'get',
      path: () => `/api/documents/status?task_id=${taskId}`,
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 200, owner: 200 },
      check: (_r, res) => res.status === 200 && expect(res.body.task).toMatchObject({ id: taskId, model_id: agentId, total_files: 1 }),
    },
    {
      name: 'POST /api/update-model/ (fields only)',
      method: 'post',
      path: () => '/api/update-model/',
      form: () => ({ model_id: agentId, core_memory: 'from update-model', uid: 'ignored' }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 200, owner: 200 },
    },
    {
      name: 'POST /api/documents/process/',
      method: 'post',
      path: () => '/api/documents/process/',
      form: () => ({ src_lang: 'es', tgt_lang: 'ay', custom_prompt: 'own agent' }),
      files: () => [{ field: 'files', name: 'mine.json', content: JSON.stringify([{ es: 'sol', ay: 'inti' }]) }],
      expect: everyoneSignedIn,
    },
    {
      name: 'GET /api/models/download (private)',
      method: 'get',
      path: () => `/api/models/download?model_id=${agentId}`,
      expect: { anonymous: 404, revokedKey: 404, stranger: 404, editor: 200, owner: 200 },
      check: (_r, res) => {
        if (res.status !== 200) return;
        expect(res.headers['content-type']).toBe('application/zip');
        expect(res.headers['content-disposition']).toBe(`attachment; filename="dataset_${agentId}_files.zip"`);
      },
    },
    {
      name: 'GET /api/api-keys/list/',
      method: 'get',
      path: () => '/api/api-keys/list/',
      expect: everyoneSignedIn,
      check: (r, res) => r !== 'owner' && expect(res.body.api_keys.map((k: { key_id: string }) => k.key_id)).not.toContain(liveKeyId),
    },
    {
      name: 'GET /api/api-keys/usage/',
      method: 'get',
      path: () => `/api/api-keys/usage/?key_id=${liveKeyId}`,
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 404, owner: 200 },
    },
    { name: 'POST /api/api-keys/create/', method: 'post', path: () => '/api/api-keys/create/', body: () => ({ name: 'another' }), expect: everyoneSignedIn },
    { name: 'GET /api/usage/summary', method: 'get', path: () => '/api/usage/summary', expect: everyoneSignedIn },
    {
      name: 'GET /api/team',
      method: 'get',
      path: () => '/api/team',
      expect: everyoneSignedIn,
      check: (r, res) => {
        const emails = res.body.members.map((m: { email: string }) => m.email);
        if (r === 'owner') expect(emails).toContain(users.editor.email.toLowerCase());
        else expect(emails).not.toContain(users.editor.email.toLowerCase());
      },
    },
    {
      name: 'POST /api/translate/ (private agent)',
      method: 'post',
      path: () => '/api/translate/',
      body: () => ({ text: 'buenos días', model_id: agentId, src_lang: 'es', tgt_lang: 'qu', stream: false }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 200, owner: 200 },
      // the real engine answers a sentence of the agent's corpus with its target
      check: (_r, res) => expect(res.body.data.translation).toBe('allin punchaw'),
    },
    {
      name: 'POST /api/team/members',
      method: 'post',
      path: () => '/api/team/members',
      body: () => ({ name: 'Someone', email: `someone-${Math.random().toString(36).slice(2)}@example.org` }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 201, editor: 201, owner: 201 },
    },
    {
      name: 'POST /api/auth/verify-email',
      method: 'post',
      path: () => '/api/auth/verify-email',
      body: () => ({ token: 'not-a-mailed-token' }),
      expect: { anonymous: 400, revokedKey: 400, stranger: 400, editor: 400, owner: 400 },
    },
    {
      name: 'POST /api/auth/verify-email/resend',
      method: 'post',
      path: () => '/api/auth/verify-email/resend',
      expect: { anonymous: 401, revokedKey: 401, stranger: 202, editor: 202, owner: 202 },
    },
    {
      name: 'POST /api/team/invitations/accept',
      method: 'post',
      path: () => '/api/team/invitations/accept',
      body: () => ({ token: 'not-a-mailed-token' }),
      // Unverified accounts are refused before the token is looked at; the verified editor gets "invalid link".
      expect: { anonymous: 401, revokedKey: 401, stranger: 403, editor: 404, owner: 403 },
    },
    {
      name: 'GET /api/auth/session',
      method: 'get',
      path: () => '/api/auth/session',
      expect: { anonymous: 200, revokedKey: 200, stranger: 200, editor: 200, owner: 200 },
      check: (r, res) => expect(res.body.user?.uid ?? null).toBe(own(r)?.uid ?? null),
    },
    {
      name: 'POST /api/translate/batch (private agent)',
      method: 'post',
      path: () => '/api/translate/batch',
      body: () => ({ texts: ['buenos días', 'gracias'], model_id: agentId, src_lang: 'es', tgt_lang: 'qu', stream: false }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 200, owner: 200 },
    },
    {
      name: 'POST /api/translate/file (private agent)',
      method: 'post',
      path: () => '/api/translate/file',
      form: () => ({ model_id: agentId, src_lang: 'es', tgt_lang: 'qu' }),
      files: () => [{ field: 'file', name: 'lines.txt', content: 'buenos días\n' }],
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 200, owner: 200 },
    },
    {
      name: 'GET /api/translate/file/status',
      method: 'get',
      path: () => `/api/translate/file/status?task_id=${fileTaskId}`,
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 404, owner: 200 },
    },
    {
      name: 'GET /api/translate/file/download',
      method: 'get',
      path: () => `/api/translate/file/download?task_id=${fileTaskId}`,
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 404, owner: 200 },
    },
    {
      name: 'POST /api/corpora/import (into an agent)',
      method: 'post',
      path: () => '/api/corpora/import',
      body: () => ({ src_lang: 'es', tgt_lang: 'qu', corpus: 'Tatoeba', model_id: agentId }),
      // Only the owner may import into an agent; nobody else learns whether it exists. The owner's import then
      // needs the public catalogue, which this test does not run (tests/api/corpora.e2e-spec.ts does).
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 404, owner: 502 },
    },
    { name: 'POST /api/plans/request', method: 'post', path: () => '/api/plans/request', body: () => ({ plan: 'starter' }), expect: everyoneSignedIn },
    {
      name: 'GET /api/account/export',
      method: 'get',
      path: () => '/api/account/export',
      expect: everyoneSignedIn,
      check: async (r) => {
        // Each account exports its own agents only: the owner's agent is in the owner's zip (its folder names carry
        // the agent id, stored uncompressed in the zip directory) and in nobody else's.
        const zip = (await users[r as 'owner' | 'editor' | 'stranger'].agent.get('/api/account/export').buffer(true).parse(binary).expect(200)).body as Buffer;
        if (r === 'owner') expect(zip.toString('latin1')).toContain(agentId);
        else expect(zip.toString('latin1')).not.toContain(agentId);
      },
    },
    {
      name: 'POST /api/account/delete (confirmation does not match)',
      method: 'post',
      path: () => '/api/account/delete',
      body: () => ({ email: 'someone-else@example.org' }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 400, editor: 400, owner: 400 },
    },
    {
      name: 'POST /api/agents/:id/corrections',
      method: 'post',
      path: () => `/api/agents/${agentId}/corrections`,
      body: () => ({ source: 'gracias', translation: 'sulpayki', corrected: 'añay' }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 201, owner: 201 },
      check: (r, res) => expect(res.body.author_uid).toBe(own(r)!.uid),
    },
    {
      name: 'POST /api/agents/:id/corrections (public agent, not a member)',
      method: 'post',
      path: () => `/api/agents/${publicAgentId}/corrections`,
      body: () => ({ source: 'sol', corrected: 'inti' }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 403, editor: 201, owner: 201 },
    },
    {
      name: 'GET /api/agents/:id/corrections',
      method: 'get',
      path: () => `/api/agents/${agentId}/corrections`,
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 200, owner: 200 },
    },
    // the editor undoes it first: then the owner finds it gone
    {
      name: 'DELETE /api/agents/:id/corrections/:correctionId',
      method: 'delete',
      path: () => `/api/agents/${agentId}/corrections/${correctionId}`,
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 200, owner: 404 },
    },
    {
      name: 'GET /api/agents/:id/glossary',
      method: 'get',
      path: () => `/api/agents/${agentId}/glossary`,
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 200, owner: 200 },
    },
    // the editor adds it first: then the owner's same term is a conflict
    {
      name: 'POST /api/agents/:id/glossary',
      method: 'post',
      path: () => `/api/agents/${agentId}/glossary`,
      body: () => ({ term: 'sol', translation: 'inti' }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 201, owner: 409 },
    },
    {
      name: 'POST /api/agents/:id/glossary/import',
      method: 'post',
      path: () => `/api/agents/${agentId}/glossary/import`,
      body: () => ({ format: 'tsv', glossary_file: 'luna\tkilla\n' }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 200, owner: 200 },
    },
    {
      name: 'PUT /api/agents/:id/glossary/:termId',
      method: 'put',
      path: () => `/api/agents/${agentId}/glossary/${termId}`,
      body: () => ({ term: 'agua', translation: 'unu' }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 200, owner: 200 },
    },
    {
      name: 'DELETE /api/agents/:id/glossary/:termId',
      method: 'delete',
      path: () => `/api/agents/${agentId}/glossary/${termId}`,
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 200, owner: 404 },
    },
    {
      name: 'POST /api/api-keys/revoke/',
      method: 'post',
      path: () => '/api/api-keys/revoke/',
      body: () => ({ key_id: liveKeyId }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 404, owner: 200 },
    },
    {
      name: 'POST /api/delete-model/',
      method: 'post',
      path: () => '/api/delete-model/',
      body: () => ({ model_id: agentId }),
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 403, owner: 200 },
    },
    {
      name: 'DELETE /api/team/members/:id',
      method: 'delete',
      path: () => `/api/team/members/${memberId}`,
      expect: { anonymous: 401, revokedKey: 401, stranger: 404, editor: 404, owner: 204 },
    },
  ];

  /** Routes with no tenant data to guard: sign-in flows, health, the public configuration and catalogue listing. */
  const NO_TENANT_DATA = [
    'GET /api/auth/oidc/callback',
    'GET /api/auth/oidc/start',
    'POST /api/auth/signin',
    'POST /api/auth/signout',
    'POST /api/auth/signup',
    'GET /api/public/config',
    'GET /api/corpora',
    'GET /healthz',
    'GET /readyz',
  ];

  it('has a row for every operation of the committed OpenAPI document (a new route needs its row)', () => {
    const doc = JSON.parse(readFileSync(join(__dirname, '../../docs/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const normalise = (name: string) =>
      name
        .split(' (')[0]
        .replace(/:(\w+)/g, '{$1}')
        .replace(/\/$/, '');
    const covered = new Set(cases.map((c) => normalise(c.name)));
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.filter((op) => !covered.has(op) && !NO_TENANT_DATA.includes(op))).toEqual([]);
  });

  describe.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    it(`answers ${ROLES.map((r) => `${r} ${c.expect[r]}`).join(', ')}`, async () => {
      if (c.name.startsWith('GET /api/models/download')) {
        // The dataset zip exists once ingestion stored the pairs (its own job).
        await waitFor(
          () => users.owner.agent.get(c.path()).then((r) => r.status),
          (s) => s === 200,
          { what: 'dataset ready', timeoutMs: 60_000 },
        );
      }
      const got: Partial<Record<Role, number>> = {};
      for (const role of ROLES) {
        const res = await send(role, c);
        got[role] = res.status;
        if (res.status >= 400) expect(typeof res.body.error).toBe('string');
        if (c.check && res.status < 300) await c.check(role, res);
      }
      expect(got).toEqual(c.expect);
    });
  });

  it("an API key, even the owner's, reads an agent as its public projection", async () => {
    const { owner } = users;
    const key = (await owner.agent.post('/api/api-keys/create/').set('X-CSRF-Token', owner.csrf).send({ name: 'reader' }).expect(200)).body.api_key;
    const res = await request(t.url).get(`/api/agents/${publicAgentId}`).set('X-API-Key', key).expect(200);
    for (const f of PRIVATE_FIELDS) expect(res.body).not.toHaveProperty(f);
    expect(res.body.id).toBe(publicAgentId);
  });

  it('after the owner deleted the agent and removed the editor, nobody reaches it', async () => {
    for (const role of ['owner', 'editor'] as const) await users[role].agent.get(`/api/agents/${agentId}`).expect(404);
    expect((await users.editor.agent.get('/api/agents/mine').expect(200)).body.shared).toEqual([]);
  });
});
