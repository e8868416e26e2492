import { Injectable, Module } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import type { AgentDto, EventMap } from '@gaia/contracts';
import { agentsSchema } from '@gaia/agents/data-access';
import { OnEvent, OUTBOX, RPC_CLIENT, type Outbox, type RpcClient } from '@gaia/shared/messaging';
import { createTestApp, type TestApp } from '@gaia/testing';
import { AgentsModule } from './agents.module';
import { CreateAgentUseCase, type NewAgent } from './create-agent/create-agent.use-case';

/** Stands in for the other consumer groups of the agents events (gateway, ingestion, retrieval): records what they receive. */
@Injectable()
class EventRecorder {
  readonly updated: EventMap['agents.agent-updated.v1'][] = [];
  readonly deleted: { consumer: string; payload: EventMap['agents.agent-deleted.v1'] }[] = [];

  @OnEvent('gateway', 'agents.agent-updated.v1')
  onUpdated(p: EventMap['agents.agent-updated.v1']): void {
    this.updated.push(p);
  }
  // The gateway also subscribes to this ingestion event; here it is only acknowledged.
  @OnEvent('gateway', 'ingestion.task-finished.v1')
  onTaskFinished(): void {}
  @OnEvent('ingestion', 'retrieval.agent-learned.v1')
  onLearned(): void {}
  @OnEvent('ingestion', 'retrieval.build-failed.v1')
  onBuildFailed(): void {}
  @OnEvent('ingestion', 'agents.agent-deleted.v1')
  onDeletedIngestion(p: EventMap['agents.agent-deleted.v1']): void {
    this.deleted.push({ consumer: 'ingestion', payload: p });
  }
  @OnEvent('retrieval', 'agents.agent-deleted.v1')
  onDeletedRetrieval(p: EventMap['agents.agent-deleted.v1']): void {
    this.deleted.push({ consumer: 'retrieval', payload: p });
  }
}
@Module({ providers: [EventRecorder] })
class RecorderModule {}

const OWNER = { uid: 'owner-1', email: 'owner@gaia.test' };
/** The stored form of an invitation link token (the gateway mails the token, the agents service sees its hash). */
const newTokenHash = () => createHash('sha256').update(randomUUID()).digest('hex');
const EDITOR = { uid: 'editor-1', email: 'Editor@Gaia.test' };
const STRANGER = { uid: 'stranger-1', email: 'stranger@gaia.test' };

describe('agents service on the real Postgres', () => {
  let t: TestApp;
  let rpc: RpcClient;
  /** Invites and accepts as the invitee (the gateway checks the invitee's verified email before accepting). */
  const addEditor = async (ownerId: string, name: string, email: string) => {
    const tokenHash = newTokenHash();
    await rpc.call('agents.team-invite.v1', { ownerId, name, email, tokenHash });
    return rpc.call('agents.team-accept.v1', { tokenHash, viewer: { uid: `uid-${email.toLowerCase()}`, email: email.toLowerCase() } });
  };
  let recorder: EventRecorder;

  beforeAll(async () => {
    t = await createTestApp({ schemas: [agentsSchema], consumers: ['agents', 'gateway', 'ingestion', 'retrieval'], imports: [AgentsModule, RecorderModule] });
    rpc = t.app.get<RpcClient>(RPC_CLIENT);
    recorder = t.app.get(EventRecorder);
  });
  afterAll(() => t.close());

  const create = (over: Partial<NewAgent> = {}): Promise<AgentDto> =>
    t.app.get(CreateAgentUseCase).execute({
      ownerId: OWNER.uid,
      ownerEmail: OWNER.email,
      srcLang: 'ES',
      tgtLang: ' Qu ',
      customPrompt: 'Spanish to Quechua',
      coreMemory: '',
      processingTaskId: null,
      filenames: [],
      engine: 'builtin',
      public: false,
      ...over,
    });

  async function publish<T extends keyof EventMap>(topic: T, payload: EventMap[T], id?: string): Promise<string> {
    const outbox = t.app.get<Outbox>(OUTBOX);
    return t.dataSource.transaction((em) => outbox.add(em, topic as never, payload as never, { id }));
  }

  it('creates agents with lower-cased languages, idempotently on id, and announces them', async () => {
    const id = randomUUID();
    const a = await create({ id, coreMemory: 'notes' });
    expect(a).toMatchObject({
      id,
      src_lang: 'es',
      tgt_lang: 'qu',
      custom_prompt: 'Spanish to Quechua',
      core_memory: 'notes',
      public: false,
      uid: OWNER.uid,
      engine: 'builtin',
      processing_status: null,
      pair_count: 0,
    });
    const again = await create({ id, customPrompt: 'different' });
    expect(again).toEqual(a);
    await expect(create({ id, ownerId: 'someone-else' })).rejects.toMatchObject({ status: 409 });
    await expect(create({ srcLang: '   ' })).rejects.toMatchObject({ status: 400 });
    await t.drain();
    expect(recorder.updated.filter((e) => e.agentId === id).map((e) => e.change)).toEqual(['created']);
  });

  describe('permissions on every use case (owner / editor / stranger / anonymous)', () => {
    let priv: AgentDto;
    let pub: AgentDto;
    beforeAll(async () => {
      const owner = { uid: 'perm-owner', email: 'perm-owner@gaia.test' };
      await addEditor(owner.uid, 'Ed', EDITOR.email);
      priv = await create({ ownerId: owner.uid });
      pub = await create({ ownerId: owner.uid, public: true });
      Object.assign(OWNER_P, owner);
    });
    const OWNER_P = { uid: '', email: '' };
    const who = (name: string) => ({ owner: OWNER_P, editor: EDITOR, stranger: STRANGER, anonymous: null })[name as 'owner'];
    const status = async (p: Promise<unknown>) =>
      p.then(
        () => 200,
        (e: { status: number }) => e.status,
      );

    it.each([
      // viewer, get(private), get(public), update(private), update(public), visibility(private), visibility(public)
      ['owner', 200, 200, 200, 200, 200, 200],
      ['editor', 200, 200, 200, 200, 403, 403],
      ['stranger', 404, 200, 404, 403, 404, 403],
      ['anonymous', 404, 200, 404, 403, 404, 403],
    ])('%s', async (name, getPriv, getPub, updPriv, updPub, visPriv, visPub) => {
      const v = who(name);
      expect(await status(rpc.call('agents.get.v1', { agentId: priv.id, viewer: v }))).toBe(getPriv);
      expect(await status(rpc.call('agents.get.v1', { agentId: pub.id, viewer: v }))).toBe(getPub);
      // update / visibility / delete need a viewer: the anonymous case uses a uid without email that is nobody.
      const actor = v ?? { uid: 'anon', email: '' };
      expect(await status(rpc.call('agents.update.v1', { agentId: priv.id, viewer: actor, patch: { core_memory: `by ${name}` } }))).toBe(updPriv);
      expect(await status(rpc.call('agents.update.v1', { agentId: pub.id, viewer: actor, patch: { core_memory: `by ${name}` } }))).toBe(updPub);
      expect(await status(rpc.call('agents.set-visibility.v1', { agentId: priv.id, viewer: actor, public: false }))).toBe(visPriv);
      expect(await status(rpc.call('agents.set-visibility.v1', { agentId: pub.id, viewer: actor, public: true }))).toBe(visPub);
      if (name !== 'owner') {
        expect(await status(rpc.call('agents.delete.v1', { agentId: priv.id, viewer: actor }))).toBe(name === 'editor' ? 403 : 404);
        expect(await status(rpc.call('agents.delete.v1', { agentId: pub.id, viewer: actor }))).toBe(403);
        expect(await status(rpc.call('agents.access.v1', { agentId: priv.id, viewer: v, need: 'edit' }))).toBe(name === 'editor' ? 200 : 404);
      }
    });

    it('answers the exact messages', async () => {
      await expect(rpc.call('agents.get.v1', { agentId: priv.id, viewer: STRANGER })).rejects.toMatchObject({ status: 404, message: 'Model not found.' });
      await expect(rpc.call('agents.delete.v1', { agentId: priv.id, viewer: EDITOR })).rejects.toMatchObject({
        status: 403,
        message: 'Only the owner can delete this agent.',
      });
      await expect(rpc.call('agents.set-visibility.v1', { agentId: priv.id, viewer: EDITOR, public: true })).rejects.toMatchObject({
        message: 'Only the owner can change the visibility.',
      });
      await expect(rpc.call('agents.update.v1', { agentId: priv.id, viewer: EDITOR, patch: { custom_prompt: ' ' } })).rejects.toMatchObject({
        status: 400,
        message: 'Please fill in all required fields',
      });
    });

    it('lets the editor modify and the owner toggle visibility; the edit is what everyone reads', async () => {
      const edited = await rpc.call('agents.update.v1', { agentId: priv.id, viewer: EDITOR, patch: { src_lang: 'GN', custom_prompt: 'Guaraní' } });
      expect(edited).toMatchObject({ src_lang: 'gn', custom_prompt: 'Guaraní' });
      const shown = await rpc.call('agents.set-visibility.v1', { agentId: priv.id, viewer: OWNER_P, public: true });
      expect(shown.public).toBe(true);
      expect(await rpc.call('agents.get.v1', { agentId: priv.id, viewer: null })).toMatchObject({ src_lang: 'gn', public: true });
      await rpc.call('agents.set-visibility.v1', { agentId: priv.id, viewer: OWNER_P, public: false });
      await expect(rpc.call('agents.get.v1', { agentId: priv.id })).rejects.toMatchObject({ status: 404 });
    });
  });

  it("lists public agents newest first and the viewer's own and shared ones", async () => {
    const owner = { uid: 'lister', email: 'lister@gaia.test' };
    const first = await create({ ownerId: owner.uid, public: true });
    const second = await create({ ownerId: owner.uid, public: true });
    const hidden = await create({ ownerId: owner.uid });
    const { agents } = await rpc.call('agents.list-public.v1', {});
    const ids = agents.map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));
    expect(ids).not.toContain(hidden.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    for (let i = 1; i < agents.length; i++) expect(agents[i - 1].created_at >= agents[i].created_at).toBe(true);

    const ed = { uid: 'lister-editor', email: 'lister-ed@gaia.test' };
    await addEditor(owner.uid, 'Ed', ed.email.toUpperCase());
    const mine = await rpc.call('agents.list-mine.v1', { viewer: owner });
    expect(mine.owned.map((a) => a.id)).toEqual([hidden.id, second.id, first.id]);
    expect(mine.shared).toEqual([]);
    const theirs = await rpc.call('agents.list-mine.v1', { viewer: ed });
    expect(theirs.owned).toEqual([]);
    expect(theirs.shared.map((a) => a.id)).toEqual([hidden.id, second.id, first.id]);
  });

  describe('teams', () => {
    const owner = { uid: 'team-owner', email: 'team-owner@gaia.test' };

    it('validates invites with the spec texts', async () => {
      await expect(rpc.call('agents.team-invite.v1', { ownerId: owner.uid, name: ' ', email: 'a@b.co', tokenHash: newTokenHash() })).rejects.toMatchObject({
        status: 400,
        message: 'Please fill in all fields.',
      });
      await expect(rpc.call('agents.team-invite.v1', { ownerId: owner.uid, name: 'Ana', email: 'nope', tokenHash: newTokenHash() })).rejects.toMatchObject({
        status: 400,
        message: 'Please enter a valid email address.',
      });
      await expect(
        rpc.call('agents.team-invite.v1', {
          ownerId: owner.uid,
          ownerEmail: owner.email,
          name: 'Me',
          email: owner.email.toUpperCase(),
          tokenHash: newTokenHash(),
        }),
      ).rejects.toMatchObject({ status: 400 });
      expect((await rpc.call('agents.team-list.v1', { ownerId: owner.uid })).members).toEqual([]);
    });

    it('propagates an invite to existing and future agents, and a removal everywhere', async () => {
      const before = [await create({ ownerId: owner.uid }), await create({ ownerId: owner.uid, public: true })];
      const other = await create({ ownerId: 'not-the-team-owner' });
      const tokenHash = newTokenHash();
      const invited = await rpc.call('agents.team-invite.v1', {
        ownerId: owner.uid,
        ownerEmail: owner.email,
        name: ' Ana ',
        email: ' Ana@Example.PE ',
        tokenHash,
      });
      expect(invited).toMatchObject({ name: 'Ana', email: 'ana@example.pe', role: 'Editor', status: 'invited' });
      expect(Number.isNaN(Date.parse(invited.addedAt))).toBe(false);
      await expect(
        rpc.call('agents.team-invite.v1', { ownerId: owner.uid, name: 'Ana', email: 'ana@example.pe', tokenHash: newTokenHash() }),
      ).rejects.toMatchObject({ status: 409 });
      // Pending: nothing is shared yet.
      for (const a of before) expect((await rpc.call('agents.access.v1', { agentId: a.id, viewer: owner })).agent.sharedWithEmails).toEqual([]);
      expect((await rpc.call('agents.list-mine.v1', { viewer: { uid: 'ana', email: 'ana@example.pe' } })).shared).toEqual([]);
      await expect(rpc.call('agents.team-accept.v1', { tokenHash, viewer: { uid: 'eve', email: 'eve@example.pe' } })).rejects.toMatchObject({ status: 403 });
      await expect(rpc.call('agents.team-accept.v1', { tokenHash: newTokenHash(), viewer: { uid: 'ana', email: 'ana@example.pe' } })).rejects.toMatchObject({
        status: 404,
      });
      const member = await rpc.call('agents.team-accept.v1', { tokenHash, viewer: { uid: 'ana', email: 'ANA@example.pe' } });
      expect(member).toMatchObject({ id: invited.id, status: 'active' });
      await expect(rpc.call('agents.team-accept.v1', { tokenHash, viewer: { uid: 'ana', email: 'ana@example.pe' } })).rejects.toMatchObject({ status: 404 });
      const after = await create({ ownerId: owner.uid });
      for (const a of [...before, after])
        expect((await rpc.call('agents.access.v1', { agentId: a.id, viewer: owner })).agent.sharedWithEmails).toEqual(['ana@example.pe']);
      expect((await rpc.call('agents.access.v1', { agentId: other.id, viewer: { uid: 'not-the-team-owner', email: '' } })).agent.sharedWithEmails).toEqual([]);
      const ana = { uid: 'ana', email: 'ana@example.pe' };
      expect((await rpc.call('agents.list-mine.v1', { viewer: ana })).shared).toHaveLength(3);
      expect((await rpc.call('agents.team-list.v1', { ownerId: owner.uid })).members).toEqual([member]);

      await t.drain();
      const sharingEvents = recorder.updated.filter((e) => e.change === 'sharing' && e.ownerId === owner.uid);
      expect(sharingEvents.map((e) => e.agentId).sort()).toEqual(before.map((a) => a.id).sort());

      await rpc.call('agents.team-remove.v1', { ownerId: owner.uid, memberId: member.id });
      for (const a of [...before, after]) expect((await rpc.call('agents.access.v1', { agentId: a.id, viewer: owner })).agent.sharedWithEmails).toEqual([]);
      await expect(rpc.call('agents.get.v1', { agentId: before[0].id, viewer: ana })).rejects.toMatchObject({ status: 404 });
      expect((await rpc.call('agents.list-mine.v1', { viewer: ana })).shared).toEqual([]);
      expect((await rpc.call('agents.team-list.v1', { ownerId: owner.uid })).members).toEqual([]);
      await expect(rpc.call('agents.team-remove.v1', { ownerId: owner.uid, memberId: member.id })).rejects.toMatchObject({ status: 404 });
      await t.drain();
      const removal = recorder.updated.filter((e) => e.change === 'sharing' && e.removedEmails.includes('ana@example.pe'));
      expect(removal).toHaveLength(3);
    });

    it('never misses an agent created while an acceptance runs', async () => {
      const o = { uid: 'race-owner', email: '' };
      const tokenHash = newTokenHash();
      await rpc.call('agents.team-invite.v1', { ownerId: o.uid, name: 'Rae', email: 'rae@gaia.test', tokenHash });
      const results = await Promise.all([
        ...Array.from({ length: 8 }, () => create({ ownerId: o.uid })),
        rpc.call('agents.team-accept.v1', { tokenHash, viewer: { uid: 'rae', email: 'rae@gaia.test' } }),
        ...Array.from({ length: 8 }, () => create({ ownerId: o.uid })),
      ]);
      expect(results).toHaveLength(17);
      const { owned } = await rpc.call('agents.list-mine.v1', { viewer: o });
      expect(owned).toHaveLength(16);
      for (const a of owned) expect(a.sharedWithEmails).toEqual(['rae@gaia.test']);
    });
  });

  it('deletes for the owner only, emits the cascade event, and never serves the agent again', async () => {
    const a = await create({ public: true });
    await addEditor(OWNER.uid, 'Del', 'del@gaia.test').catch(() => undefined);
    await expect(rpc.call('agents.delete.v1', { agentId: a.id, viewer: { uid: 'x', email: 'del@gaia.test' } })).rejects.toMatchObject({ status: 403 });
    expect(await rpc.call('agents.delete.v1', { agentId: a.id, viewer: OWNER })).toEqual({ success: true });
    await t.drain();
    const cascade = recorder.deleted.filter((d) => d.payload.agentId === a.id);
    expect(cascade.map((d) => d.consumer).sort()).toEqual(['ingestion', 'retrieval']);
    expect(cascade[0].payload.ownerId).toBe(OWNER.uid);
    await expect(rpc.call('agents.get.v1', { agentId: a.id, viewer: OWNER })).rejects.toMatchObject({ status: 404, message: 'Model not found.' });
    await expect(rpc.call('agents.delete.v1', { agentId: a.id, viewer: OWNER })).rejects.toMatchObject({ status: 404 });
    expect((await rpc.call('agents.resolve.v1', { agentId: a.id })).agent).toBeNull();
    expect((await rpc.call('agents.list-public.v1', {})).agents.map((x) => x.id)).not.toContain(a.id);
    expect((await rpc.call('agents.list-mine.v1', { viewer: OWNER })).owned.map((x) => x.id)).not.toContain(a.id);
    await expect(create({ id: a.id })).rejects.toMatchObject({ status: 409 });
    // A late processing event does not bring it back.
    await publish('ingestion.task-started.v1', {
      taskId: 't-late',
      agentId: a.id,
      ownerId: OWNER.uid,
      mode: 'create',
      srcLang: 'es',
      tgtLang: 'qu',
      customPrompt: '',
      coreMemory: '',
      totalFiles: 1,
      filenames: ['x.json'],
      createdAt: new Date().toISOString(),
    });
    await t.drain();
    expect((await rpc.call('agents.resolve.v1', { agentId: a.id })).agent).toBeNull();
  });

  it('mirrors ingestion: creates on task-started, finishes once even when the event is delivered again', async () => {
    const owner = { uid: 'ingest-owner', email: 'io@gaia.test' };
    await addEditor(owner.uid, 'Ivy', 'ivy@gaia.test');
    const agentId = randomUUID();
    const taskId = randomUUID();
    await publish('ingestion.task-started.v1', {
      taskId,
      agentId,
      ownerId: owner.uid,
      mode: 'create',
      srcLang: 'ES',
      tgtLang: 'AYM',
      customPrompt: 'Aymara',
      coreMemory: 'n',
      totalFiles: 2,
      filenames: ['a.json', 'b.pdf'],
      createdAt: new Date().toISOString(),
    });
    await t.drain();
    expect(await rpc.call('agents.get.v1', { agentId, viewer: owner })).toMatchObject({
      src_lang: 'es',
      tgt_lang: 'aym',
      custom_prompt: 'Aymara',
      processing_task_id: taskId,
      processing_status: 'PROCESSING',
      document_source: 'a.json, b.pdf',
      sharedWithEmails: ['ivy@gaia.test'],
    });
    const task = {
      id: taskId,
      status: 'COMPLETED' as const,
      progress: 100,
      message: 'Processed 2 of 2 files successfully!',
      estimated_processing_time: 0,
      total_pages: 3,
      total_files: 2,
      successful_files: 2,
      text_blocks_extracted: 40,
      created_at: new Date().toISOString(),
      model_id: agentId,
      errors: [],
    };
    const finished = {
      agentId,
      ownerId: owner.uid,
      taskId,
      status: 'COMPLETED' as const,
      message: task.message,
      processingError: null,
      documentCount: 2,
      textBlocksExtracted: 40,
      pairCount: 37,
      filenames: ['a.json', 'b.pdf'],
      task,
    };
    const eventId = await publish('ingestion.task-finished.v1', finished);
    await t.drain();
    const done = await rpc.call('agents.get.v1', { agentId, viewer: owner });
    expect(done).toMatchObject({
      processing_task_id: null,
      processing_status: 'COMPLETED',
      processing_error: null,
      document_count: 2,
      text_blocks_extracted: 40,
      pair_count: 37,
    });
    // Redelivery of the same event (e.g. the ack was lost) is a no-op for the agent.
    const versions = () => t.dataSource.query(`SELECT version FROM agent WHERE id = $1`, [agentId]).then((r: { version: number }[]) => r[0].version);
    const v1 = await versions();
    await t.dataSource.query(`UPDATE outbox_delivery SET status = 'pending', next_attempt_at = now() WHERE event_id = $1`, [eventId]);
    await t.drain();
    expect(await versions()).toBe(v1);
    const [delivery] = await t.dataSource.query(`SELECT status, attempts FROM outbox_delivery WHERE event_id = $1 AND subscriber = 'agents'`, [eventId]);
    expect(delivery).toEqual({ status: 'delivered', attempts: 2 });

    // An update task that fails: FAILED with the error, task id kept for the page.
    const t2 = randomUUID();
    await publish('ingestion.task-started.v1', {
      taskId: t2,
      agentId,
      ownerId: owner.uid,
      mode: 'update',
      srcLang: 'es',
      tgtLang: 'aym',
      customPrompt: '',
      coreMemory: '',
      totalFiles: 1,
      filenames: ['c.txt'],
      createdAt: new Date().toISOString(),
    });
    await publish('ingestion.task-finished.v1', {
      ...finished,
      taskId: t2,
      status: 'FAILED',
      processingError: 'No parallel text found',
      message: 'No parallel text found',
      filenames: ['c.txt'],
      task: { ...task, id: t2, status: 'FAILED' },
    });
    await t.drain();
    expect(await rpc.call('agents.get.v1', { agentId, viewer: owner })).toMatchObject({
      processing_status: 'FAILED',
      processing_error: 'No parallel text found',
      processing_task_id: t2,
      custom_prompt: 'Aymara',
      document_source: 'a.json, b.pdf, c.txt',
    });
    const changes = recorder.updated.filter((e) => e.agentId === agentId).map((e) => e.change);
    expect(changes).toEqual(['created', 'processing', 'processing', 'processing']);
  });

  it('records learned results (retrieval.agent-learned.v1) and learning failures', async () => {
    const owner = { uid: 'learn-owner', email: '' };
    const taskId = randomUUID();
    const a = await create({ ownerId: owner.uid, processingTaskId: taskId, filenames: ['q.json'] });
    expect(a).toMatchObject({ processing_status: 'PROCESSING', processing_task_id: taskId, document_source: 'q.json' });
    const stats = { srcVocab: 10, tgtVocab: 12, phrasePairs: 30, charRatio: 1.1, trainingMs: 5 };
    await publish('retrieval.agent-learned.v1', {
      agentId: a.id,
      taskId,
      version: 'v3',
      artifactKey: `agents/${a.id}/artifacts/v3.bin`,
      learnedSummary: 'kuna: they',
      pairCount: 120,
      stats,
      learnedAt: new Date().toISOString(),
    });
    await t.drain();
    expect((await rpc.call('agents.resolve.v1', { agentId: a.id })).agent).toMatchObject({
      learned_memory: 'kuna: they',
      pair_count: 120,
      artifact_version: 'v3',
      artifact_key: `agents/${a.id}/artifacts/v3.bin`,
      processing_status: 'COMPLETED',
      processing_task_id: null,
    });
    const t2 = randomUUID();
    await publish('ingestion.task-started.v1', {
      taskId: t2,
      agentId: a.id,
      ownerId: owner.uid,
      mode: 'update',
      srcLang: '',
      tgtLang: '',
      customPrompt: '',
      coreMemory: '',
      totalFiles: 1,
      filenames: ['r.json'],
      createdAt: new Date().toISOString(),
    });
    await publish('retrieval.build-failed.v1', { agentId: a.id, taskId: 'an-older-task', version: 'v4', message: 'stale' });
    await publish('retrieval.build-failed.v1', { agentId: a.id, taskId: t2, version: 'v4', message: 'Out of memory' });
    await t.drain();
    expect(await rpc.call('agents.get.v1', { agentId: a.id, viewer: owner })).toMatchObject({
      processing_status: 'FAILED',
      processing_error: 'Out of memory',
      processing_task_id: t2,
      learned_memory: 'kuna: they',
      src_lang: 'es',
    });
  });
});
