import request from 'supertest';
import type { TestApp } from '@gaia/testing';
import { signUp, startApi, type User } from './support/api-app';
import { INVITE_SUBJECT, SmtpInbox, VERIFY_SUBJECT, linkOf, verifyEmail } from './support/smtp-inbox';
import { createAgent } from './support/agents';

/**
 * Email verification and team invitations with single-use links, mailed through a real SMTP server started
 * here. The attack of issue #12: signing up with an invited (not yet registered) email must give nothing.
 */
describe('team invitations: rights start when the verified invitee accepts the mailed link', () => {
  let t: TestApp & { url: string };
  let inbox: SmtpInbox;
  let owner: User;
  let agentId: string;

  const sees = async (u: User) => (await u.agent.get(`/api/agents/${agentId}`)).status;
  const shared = async (u: User) => (await u.agent.get('/api/agents/mine').expect(200)).body.shared.map((a: { id: string }) => a.id);

  beforeAll(async () => {
    inbox = await SmtpInbox.start();
    t = await startApi({ env: { SMTP_URL: inbox.url, MAIL_FROM: 'Gaia <no-reply@gaia.test>' }, gateway: { authPerIp: [{ limit: 1000, windowSeconds: 60 }] } });
    owner = await signUp(t.url, 'owner');
    agentId = (
      await createAgent(t.app, {
        ownerId: owner.uid,
        ownerEmail: owner.email,
        srcLang: 'es',
        tgtLang: 'qu',
        customPrompt: 'private',
        coreMemory: 'secret notes',
      })
    ).id;
  });
  afterAll(async () => {
    await t?.close();
    await inbox?.close();
  });

  it('mails a verification link at sign-up; the link verifies once, and only its hash is stored', async () => {
    const u = await signUp(t.url, 'verify');
    expect((await u.agent.get('/api/auth/me').expect(200)).body.user.emailVerified).toBe(false);
    const mail = await inbox.waitForMail(u.email, VERIFY_SUBJECT);
    const { url, token } = linkOf(mail);
    expect(url.pathname).toBe('/verify-email');
    expect(token.length).toBeGreaterThanOrEqual(43);
    const stored = JSON.stringify(await t.dataSource.query(`SELECT * FROM identity_email_token`));
    expect(stored).not.toContain(token);
    // Anyone holding the link verifies (no session needed), once.
    expect((await request(t.url).post('/api/auth/verify-email').send({ token }).expect(200)).body).toEqual({ verified: true, email: u.email });
    expect((await u.agent.get('/api/auth/me').expect(200)).body.user.emailVerified).toBe(true);
    expect((await request(t.url).post('/api/auth/verify-email').send({ token }).expect(400)).body.error).toMatch(/invalid, expired or already used/);
    expect((await request(t.url).post('/api/auth/verify-email').send({ token: 'not-a-token' }).expect(400)).body.error).toMatch(
      /invalid, expired or already used/,
    );
  });

  it('resends a verification link on request; the older link stops working', async () => {
    const u = await signUp(t.url, 'resend');
    const first = linkOf(await inbox.waitForMail(u.email, VERIFY_SUBJECT)).token;
    await u.agent.post('/api/auth/verify-email/resend').set('X-CSRF-Token', u.csrf).expect(202);
    const second = linkOf(await inbox.waitForMail(u.email, VERIFY_SUBJECT, 2)).token;
    await request(t.url).post('/api/auth/verify-email').send({ token: first }).expect(400);
    await request(t.url).post('/api/auth/verify-email').send({ token: second }).expect(200);
  });

  it('a pending invitation grants nothing, even to someone who signs up with the invited email', async () => {
    const victimEmail = `victim-${Date.now().toString(36)}@example.org`;
    await owner.agent.post('/api/team/members').set('X-CSRF-Token', owner.csrf).send({ name: 'Victim', email: victimEmail }).expect(201);
    const attacker = await signUpAs(victimEmail);
    expect(await sees(attacker)).toBe(404);
    expect(await shared(attacker)).toEqual([]);
    expect((await attacker.agent.get(`/api/models/download?model_id=${agentId}`)).status).toBe(404);
    await attacker.agent.patch(`/api/agents/${agentId}`).set('X-CSRF-Token', attacker.csrf).send({ core_memory: 'taken over' }).expect(404);
    expect((await owner.agent.get(`/api/agents/${agentId}`).expect(200)).body.sharedWithEmails).toEqual([]);
    // Without the mailbox of that address the attacker has neither the invitation nor the verification link.
    await attacker.agent
      .post('/api/team/invitations/accept')
      .set('X-CSRF-Token', attacker.csrf)
      .send({ token: 'guessed-token-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' })
      .expect(403);
  });

  it('the invitee accepts with the mailed link once verified; the link is single-use and only its hash is stored', async () => {
    const editor = await signUp(t.url, 'editor');
    const member = (await owner.agent.post('/api/team/members').set('X-CSRF-Token', owner.csrf).send({ name: 'Luis', email: editor.email }).expect(201)).body;
    expect(member).toMatchObject({ email: editor.email, role: 'Editor', status: 'invited' });
    const mail = await inbox.waitForMail(editor.email, INVITE_SUBJECT);
    expect(mail.subject).toBe('owner person invited you to edit translation agents on Gaia');
    const { url, token } = linkOf(mail);
    expect(url.pathname).toBe('/invitations/accept');
    expect(JSON.stringify(await t.dataSource.query(`SELECT * FROM team_member`))).not.toContain(token);
    expect(await sees(editor)).toBe(404);

    // Not verified yet: refused, and the link stays usable.
    const unverified = await editor.agent.post('/api/team/invitations/accept').set('X-CSRF-Token', editor.csrf).send({ token }).expect(403);
    expect(unverified.body.error).toBe('Please confirm your email address before accepting an invitation. Check your inbox for the verification link.');
    // Another verified account cannot use the link either.
    const other = await signUp(t.url, 'other');
    await verifyEmail(t.url, inbox, other);
    expect((await other.agent.post('/api/team/invitations/accept').set('X-CSRF-Token', other.csrf).send({ token }).expect(403)).body.error).toMatch(
      /sent to another email address/,
    );
    expect(await sees(other)).toBe(404);

    await verifyEmail(t.url, inbox, editor);
    const accepted = await editor.agent.post('/api/team/invitations/accept').set('X-CSRF-Token', editor.csrf).send({ token }).expect(200);
    expect(accepted.body).toMatchObject({ id: member.id, status: 'active' });
    expect(await sees(editor)).toBe(200);
    expect(await shared(editor)).toEqual([agentId]);
    expect((await owner.agent.get('/api/team').expect(200)).body.members.find((m: { id: string }) => m.id === member.id).status).toBe('active');
    // Single use.
    expect((await editor.agent.post('/api/team/invitations/accept').set('X-CSRF-Token', editor.csrf).send({ token }).expect(404)).body.error).toBe(
      'This invitation link is invalid, expired or already used.',
    );
    // Agents created later are shared with active members too; removal takes the rights away.
    const later = (await createAgent(t.app, { ownerId: owner.uid, ownerEmail: owner.email, srcLang: 'es', tgtLang: 'ay' })).id;
    await editor.agent.get(`/api/agents/${later}`).expect(200);
    await owner.agent.delete(`/api/team/members/${member.id}`).set('X-CSRF-Token', owner.csrf).expect(204);
    expect(await sees(editor)).toBe(404);
  });

  let seq = 0;
  async function signUpAs(email: string): Promise<User> {
    const agent = request.agent(t.url);
    const res = await agent
      .post('/api/auth/signup')
      .send({ email, password: 'correct horse battery', fullName: `attacker ${seq++}` })
      .expect(201);
    const csrf = /gaia_csrf=([^;]+)/.exec((res.headers['set-cookie'] as unknown as string[]).join(';'))![1];
    return { agent, csrf: decodeURIComponent(csrf), uid: res.body.user.uid, email, cookie: '' };
  }
});
