import { io, type Socket } from 'socket.io-client';
import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import type { IngestionTaskDto } from '@gaia/contracts';
import { OUTBOX, type Outbox } from '@gaia/shared/messaging';
import { createTestDatabase, waitFor, type TestApp, type TestDatabase } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { SmtpInbox, inviteAndAccept, verifyEmail } from './support/smtp-inbox';
import { uploadDocuments } from './support/documents';
import { realAgent, TINY_ES_QU } from './fixtures/real-agent';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

function connect(url: string, headers: Record<string, string> = {}): Socket {
  return io(url, { path: '/socket.io', transports: ['websocket'], extraHeaders: headers, reconnection: false, forceNew: true });
}

function connected(s: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', (e) => reject(e));
  });
}

function refused(s: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    s.once('connect', () => reject(new Error('connected but should have been refused')));
    s.once('connect_error', (e) => resolve(e.message));
  });
}

function next<T>(s: Socket, event: string, match: (p: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const h = (p: T) => {
      if (!match(p)) return;
      s.off(event, h);
      resolve(p);
    };
    s.on(event, h);
  });
}

/**
 * Socket.IO: handshake by session cookie, pushes to the owner and editors only, task subscriptions,
 * translation over the socket, and two replicas joined by the Redis adapter.
 */
describe('realtime (Socket.IO)', () => {
  let db: TestDatabase;
  let a: TestApp & { url: string };
  let b: TestApp & { url: string };
  const u = {} as Record<'owner' | 'editor' | 'stranger', User>;
  const sockets: Socket[] = [];
  let agentId: string;
  let inbox: SmtpInbox;
  let editorMemberId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    inbox = await SmtpInbox.start();
    const common = {
      env: { REDIS_URL, SMTP_URL: inbox.url },
      ensure: [{ module: IngestionModule, schema: ingestionSchema }],
      gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] },
      database: db,
    };
    a = await startApi(common);
    // The replicas share the database and the file storage (as in production), so b serves a's learned agents.
    b = await startApi({ ...common, env: { ...common.env, DATA_DIR: a.dataDir } });
    for (const r of ['owner', 'editor', 'stranger'] as const) u[r] = await signUp(a.url, r);
    await verifyEmail(a.url, inbox, u.editor);
    editorMemberId = await inviteAndAccept(a.url, inbox, u.owner, u.editor, 'Ed');
    // A real agent of the owner (learned from a tiny made-up corpus, shared with the team's editors) for the real translation service.
    agentId = await realAgent(a, u.owner, { srcLang: 'es', tgtLang: 'qu', pairs: TINY_ES_QU });
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await b?.close({ keepDatabase: true });
    await a?.close();
    await inbox?.close();
  });

  const open = async (url: string, user: User) => {
    const s = connect(url, { cookie: user.cookie });
    sockets.push(s);
    await connected(s);
    return s;
  };

  it('refuses a handshake without a session, with a bad cookie, or from another origin', async () => {
    const anon = connect(a.url);
    sockets.push(anon);
    expect(await refused(anon)).toBe('unauthorized');
    const forged = connect(a.url, { cookie: 'gaia_session=forged' });
    sockets.push(forged);
    expect(await refused(forged)).toBe('unauthorized');
    const cross = connect(a.url, { cookie: u.owner.cookie, origin: 'https://evil.example' });
    sockets.push(cross);
    expect(await refused(cross)).toBe('cross-origin socket refused');
  });

  it('pushes agent_updated to the owner and editors on any replica (Redis adapter), never to a stranger', async () => {
    const ownerA = await open(a.url, u.owner);
    const ownerB = await open(b.url, u.owner);
    const editorB = await open(b.url, u.editor);
    const strangerA = await open(a.url, u.stranger);
    const seenByStranger: unknown[] = [];
    strangerA.on('agent_updated', (p) => seenByStranger.push(p));
    const isOurs = (p: { id: string; core_memory: string }) => p.id === agentId && p.core_memory === 'pushed';
    const got = Promise.all([next(ownerA, 'agent_updated', isOurs), next(ownerB, 'agent_updated', isOurs), next(editorB, 'agent_updated', isOurs)]);
    await u.owner.agent.patch(`/api/agents/${agentId}`).set('X-CSRF-Token', u.owner.csrf).send({ core_memory: 'pushed' }).expect(200);
    const [p1, p2, p3] = await got;
    expect(p1).toEqual(p2);
    expect(p3).toMatchObject({ id: agentId, uid: u.owner.uid, sharedWithEmails: [u.editor.email] });
    // Socket.IO keeps order per connection: an answer after the push proves nothing was sent to the stranger.
    expect(await strangerA.emitWithAck('unsubscribe_task', { task_id: 'none' })).toEqual({ ok: true });
    expect(seenByStranger).toEqual([]);
  });

  it('task subscriptions: the owner and editors get the task state, a stranger is refused', async () => {
    const up = await uploadDocuments(u.owner, { src_lang: 'es', tgt_lang: 'qu', custom_prompt: 'socket task' }, [
      { name: 'p.json', data: JSON.stringify([{ es: 'sol', qu: 'inti' }]) },
    ]).expect(200);
    const owner = await open(b.url, u.owner);
    const first = next<{ id: string; model_id: string }>(owner, 'task_progress', (t) => t.id === up.body.task_id);
    expect(await owner.emitWithAck('subscribe_task', { task_id: up.body.task_id })).toEqual({ ok: true });
    expect(await first).toMatchObject({ id: up.body.task_id, model_id: up.body.model_id, total_files: 1 });
    const stranger = await open(a.url, u.stranger);
    expect(await stranger.emitWithAck('subscribe_task', { task_id: up.body.task_id })).toEqual({ ok: false, error: 'Task not found.' });
    expect(await stranger.emitWithAck('subscribe_task', { task_id: '00000000-0000-0000-0000-000000000000' })).toEqual({ ok: false, error: 'Task not found.' });
    expect(await stranger.emitWithAck('subscribe_task', {})).toEqual({ ok: false, error: 'task_id is required.' });
  });

  it('translates over the socket: translation_event objects ending with translation_complete', async () => {
    const s = await open(b.url, u.editor);
    const events: Array<{ type: string; final_translation?: string }> = [];
    const done = new Promise<void>((resolve) => {
      s.on('translation_event', (e: { type: string; final_translation?: string }) => {
        events.push(e);
        if (e.type === 'translation_complete' || e.type === 'error') resolve();
      });
    });
    expect(await s.emitWithAck('translate', { text: 'buenos días', model_id: agentId, src_lang: 'es', tgt_lang: 'qu' })).toEqual({ ok: true });
    await done;
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('status');
    expect(types).toContain('translation_chunk');
    expect(types.filter((x) => x === 'translation_complete')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'translation_complete', final_translation: 'allin punchaw' });
    const strangerSocket = await open(b.url, u.stranger);
    const err = next<{ type: string; message: string }>(strangerSocket, 'translation_event');
    expect(await strangerSocket.emitWithAck('translate', { text: 'hola', model_id: agentId, src_lang: 'es', tgt_lang: 'qu' })).toEqual({
      ok: false,
      error: 'Model not found.',
    });
    expect(await err).toEqual({ type: 'error', message: 'Model not found.' });
  });
  it('a removed editor stops receiving task_progress of the agent at once, on any replica', async () => {
    const up = await uploadDocuments(u.owner, { src_lang: 'es', tgt_lang: 'qu', custom_prompt: 'removal' }, [
      { name: 'r.json', data: JSON.stringify([{ es: 'luna', qu: 'killa' }]) },
    ]).expect(200);
    const taskId: string = up.body.task_id;
    // The agent is created from ingestion.task-started.v1 (asynchronous), shared with the team's editors.
    await waitFor(
      () => u.editor.agent.get(`/api/agents/${up.body.model_id}`).then((r) => r.status),
      (st) => st === 200,
      { what: 'agent shared with the editor' },
    );
    const owner = await open(b.url, u.owner);
    const editor = await open(b.url, u.editor);
    const seenByEditor: Array<{ id: string; message: string }> = [];
    editor.on('task_progress', (t) => seenByEditor.push(t));
    const current = next<IngestionTaskDto>(editor, 'task_progress', (t) => t.id === taskId);
    expect(await editor.emitWithAck('subscribe_task', { task_id: taskId })).toEqual({ ok: true });
    const task = await current;

    await u.owner.agent.delete(`/api/team/members/${editorMemberId}`).set('X-CSRF-Token', u.owner.csrf).expect(204);
    // A progress event of that task after the removal, through the real outbox → gateway listener → Redis adapter.
    const marker = 'after the editor was removed';
    const ownerGot = next<{ id: string; message: string }>(owner, 'task_progress', (t) => t.id === taskId && t.message === marker);
    await a.dataSource.transaction((em) =>
      a.app.get<Outbox>(OUTBOX).add(em, 'ingestion.task-progress.v1', { agentId: up.body.model_id, ownerId: u.owner.uid, task: { ...task, message: marker } }),
    );
    await ownerGot;
    // Both sockets live on replica b: an answer on the editor's socket after the owner's push proves nothing was sent to it.
    expect(await editor.emitWithAck('unsubscribe_task', { task_id: 'none' })).toEqual({ ok: true });
    expect(seenByEditor.filter((t) => t.message === marker)).toEqual([]);
    expect(await editor.emitWithAck('subscribe_task', { task_id: taskId })).toEqual({ ok: false, error: 'Task not found.' });
  });
});
