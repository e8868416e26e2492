import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { waitFor } from '@gaia/testing';
import type { User } from './api-app';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * A real SMTP server in the test process (smtp-server, plain SMTP on 127.0.0.1, any sender accepted); the
 * platform sends to it through nodemailer with SMTP_URL = `inbox.url`. Messages are parsed with mailparser.
 */
export class SmtpInbox {
  readonly messages: ReceivedMail[] = [];
  private server!: SMTPServer;
  url = '';

  static async start(): Promise<SmtpInbox> {
    const inbox = new SmtpInbox();
    inbox.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        simpleParser(stream).then(
          (m) => {
            const to = (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
            for (const addr of to) inbox.messages.push({ to: addr, subject: m.subject ?? '', text: m.text ?? '' });
            callback();
          },
          (e: Error) => callback(e),
        );
      },
    });
    await new Promise<void>((resolve) => inbox.server.listen(0, '127.0.0.1', () => resolve()));
    inbox.url = `smtp://127.0.0.1:${(inbox.server.server.address() as AddressInfo).port}`;
    return inbox;
  }

  /** Waits for the n-th (1-based) message to `to` whose subject matches. */
  async waitForMail(to: string, subject: RegExp, nth = 1): Promise<ReceivedMail> {
    const find = async () => this.messages.filter((m) => m.to === to.toLowerCase() && subject.test(m.subject));
    const got = await waitFor(find, (l) => l.length >= nth, { what: `mail "${subject}" #${nth} to ${to}` });
    return got[nth - 1];
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The first http(s) link of a message and its `token` parameter. */
export function linkOf(mail: ReceivedMail): { url: URL; token: string } {
  const m = /https?:\/\/\S+/u.exec(mail.text);
  if (!m) throw new Error(`no link in "${mail.subject}"`);
  const url = new URL(m[0]);
  return { url, token: url.searchParams.get('token') ?? '' };
}

export const VERIFY_SUBJECT = /Confirm your email address/u;
export const INVITE_SUBJECT = /invited you/u;

/** Follows the verification link of the user's (n-th) verification mail, as the verify-email page does. */
export async function verifyEmail(baseUrl: string, inbox: SmtpInbox, user: Pick<User, 'email'>, nth = 1): Promise<void> {
  const { url, token } = linkOf(await inbox.waitForMail(user.email, VERIFY_SUBJECT, nth));
  if (url.pathname !== '/verify-email') throw new Error(`unexpected verification link ${url.pathname}`);
  await request(baseUrl).post('/api/auth/verify-email').send({ token }).expect(200);
}

/** Owner invites the editor; the (verified) editor follows the mailed link and accepts, as the accept page does. */
export async function inviteAndAccept(baseUrl: string, inbox: SmtpInbox, owner: User, editor: User, name = 'Editor'): Promise<string> {
  const member = await owner.agent.post('/api/team/members').set('X-CSRF-Token', owner.csrf).send({ name, email: editor.email }).expect(201);
  const { token } = linkOf(await inbox.waitForMail(editor.email, INVITE_SUBJECT));
  await editor.agent.post('/api/team/invitations/accept').set('X-CSRF-Token', editor.csrf).send({ token }).expect(200);
  return member.body.id as string;
}
