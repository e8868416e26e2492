import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { createMailSender, MAILBOX_DIR } from './mail.module';
import { MailboxMailSender } from './mailbox-mail.adapter';
import { SmtpMailSender } from './smtp-mail.adapter';

describe('mail port', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'gaia-mail-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('without SMTP_URL writes each message as an .eml file (owner-only) in DATA_DIR/mailbox', async () => {
    const sender = createMailSender({ DATA_DIR: dataDir, SMTP_URL: undefined, MAIL_FROM: 'Gaia <no-reply@gaia.test>' });
    expect(sender).toBeInstanceOf(MailboxMailSender);
    const link = 'http://localhost:8080/verify-email?token=abc';
    await sender.send({ to: 'ana@example.org', subject: 'Confirm your email address for Gaia', text: `Open ${link}\n`, link });
    await sender.send({ to: 'luis@example.org', subject: 'Second', text: 'two', link: 'http://x/y' });
    const dir = join(dataDir, MAILBOX_DIR);
    const files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(2);
    const parsed = await Promise.all(files.map((f) => simpleParser(readFileSync(join(dir, f)))));
    const first = parsed.find((m) => m.subject === 'Confirm your email address for Gaia')!;
    expect(first.text).toContain(link);
    expect(first.from?.value[0]).toMatchObject({ name: 'Gaia', address: 'no-reply@gaia.test' });
    expect(JSON.stringify(first.to)).toContain('ana@example.org');
    for (const f of files) expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
  });

  it('with SMTP_URL sends through SMTP', () => {
    expect(createMailSender({ DATA_DIR: dataDir, SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: undefined })).toBeInstanceOf(SmtpMailSender);
  });
});
