import { IngestionModule, ingestionSchema } from '@gaia/ingestion/feature';
import type { TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { createAgent } from './support/agents';
import { rowsMentioning } from './support/database-scan';
import { inviteAndAccept, SmtpInbox, verifyEmail } from './support/smtp-inbox';

/**
 * An editor's corrections belong to the agent they corrected (its owner keeps them, the agent learns from them), but
 * who wrote them is the editor's personal data: once the editor deletes their account no row holds their id or
 * email, and the owner still has the corrections, without an author.
 */
describe("account deletion: an editor's corrections on another owner's agent", () => {
  let t: TestApp & { url: string };
  let inbox: SmtpInbox;
  let owner: User;
  let editor: User;

  /** Rows of every table that mention one of `needles` (case-insensitive), as `table: row`. */
  const mentions = (needles: string[]) => rowsMentioning(t.dataSource, needles);

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    t = await startApi({
      env: { SMTP_URL: inbox.url },
      ensure: [{ module: IngestionModule, schema: ingestionSchema }],
      gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] },
    });
    owner = await signUp(t.url, 'feedback-owner');
    editor = await signUp(t.url, 'feedback-editor');
  });
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  it('removes the editor id and email from their corrections, which the owner keeps', async () => {
    const agentId = (await createAgent(t.app, { ownerId: owner.uid, srcLang: 'es', tgtLang: 'qu' })).id;
    await verifyEmail(t.url, inbox, editor);
    await inviteAndAccept(t.url, inbox, owner, editor);
    await t.drain();
    await editor.agent
      .post(`/api/agents/${agentId}/corrections`)
      .set('X-CSRF-Token', editor.csrf)
      .send({ source: 'el río', translation: 'mayu', corrected: 'hatun mayu' })
      .expect(201);
    expect((await mentions([editor.uid])).some((r) => r.startsWith('agent_correction:'))).toBe(true);

    await editor.agent.post('/api/account/delete').set('X-CSRF-Token', editor.csrf).send({ email: editor.email }).expect(200);
    await t.drain();

    expect(await mentions([editor.uid, editor.email])).toEqual([]);
    const kept = (await owner.agent.get(`/api/agents/${agentId}/corrections`).expect(200)).body.corrections;
    expect(kept).toEqual([expect.objectContaining({ source: 'el río', corrected: 'hatun mayu', author_uid: '', author_email: '' })]);
  });
});
