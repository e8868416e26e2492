import { Logger } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createTransport, type Transporter } from 'nodemailer';
import type { MailMessage, MailSender } from './mail.port';

/**
 * The embedded default (no SMTP_URL): each message becomes an .eml file in a mailbox folder (DATA_DIR/mailbox)
 * and its link is logged, so `npm start` works offline. For development only: links are single-use secrets,
 * so set SMTP_URL wherever other people can read the logs.
 */
export class MailboxMailSender implements MailSender {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter;

  constructor(
    readonly dir: string,
    private readonly from: string,
  ) {
    this.transport = createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  }

  async send(m: MailMessage): Promise<void> {
    const info = (await this.transport.sendMail({ from: this.from, to: m.to, subject: m.subject, text: m.text })) as { message: Buffer };
    await mkdir(this.dir, { recursive: true });
    const file = join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
    await writeFile(file, info.message, { mode: 0o600 });
    this.logger.log(`mail "${m.subject}" saved to ${file} (no SMTP_URL): ${m.link}`);
  }
}
